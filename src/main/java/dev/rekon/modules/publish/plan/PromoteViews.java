package dev.rekon.modules.publish.plan;

import dev.rekon.modules.release.SignatureCheck;

/**
 * What a promotion is planned from: the ModuleTemplate of the version (null: none), how its descriptor's signature
 * checks now (null without a template), and the module's ModuleReleaseMeta (null: none).
 */
public record PromoteViews(PromoteKey key, boolean requireSignature, PublishedTemplate template,
        SignatureCheck signature, PublishedMeta meta) {
}
