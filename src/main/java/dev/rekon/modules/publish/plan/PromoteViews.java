package dev.rekon.modules.publish.plan;

import java.time.Instant;
import java.util.Optional;

import dev.rekon.modules.release.MaintenanceWindow;
import dev.rekon.modules.release.SignatureCheck;

/**
 * What a promotion by hand is planned from: the ModuleTemplate of the version (null: none), how its descriptor's
 * signature checks now (null without a template), the module's ModuleReleaseMeta (null: none), the promotions'
 * maintenance window (empty: always open) and the time now.
 */
public record PromoteViews(PromoteKey key, boolean requireSignature, PublishedTemplate template,
        SignatureCheck signature, PublishedMeta meta, Optional<MaintenanceWindow> window, Instant now) {

    /** Without a maintenance window. */
    public PromoteViews(PromoteKey key, boolean requireSignature, PublishedTemplate template, SignatureCheck signature,
            PublishedMeta meta) {
        this(key, requireSignature, template, signature, meta, Optional.empty(), Instant.EPOCH);
    }
}
