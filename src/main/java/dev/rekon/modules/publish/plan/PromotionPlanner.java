package dev.rekon.modules.publish.plan;

import java.util.List;
import java.util.Optional;

import dev.rekon.core.Reply;
import dev.rekon.core.SemVer;
import dev.rekon.modules.publish.plan.PublishPlan.ChannelMove;
import dev.rekon.modules.publish.plan.PublishPlan.Note;
import dev.rekon.modules.release.SignatureCheck;

/**
 * Decides a promotion by hand (pure): a channel moves to a version Rekon published, never back, at most one
 * major version at a time, and, with signatures required, only to a version whose descriptor still verifies.
 */
public final class PromotionPlanner {

    public static final String PROMOTED = "ChannelPromoted";
    private static final String CHANNEL = "[a-z]{3,32}";

    private PromotionPlanner() {
    }

    public static PublishPlan plan(PromoteViews v) {
        PromoteKey key = v.key();
        Optional<SemVer> version = SemVer.tryParse(key.version());
        if (!key.channel().matches(CHANNEL)) {
            return refused(key, "ChannelInvalid", "channel '" + key.channel() + "' is not a Kyma channel name (three to"
                    + " 32 lower-case letters)");
        }
        if (version.isEmpty() || new PublishKey("x/component-descriptors/x/" + key.module(), key.version(),
                key.namespace()).refusal().isPresent()) {
            return refused(key, "VersionNotSemver", "'" + key.version() + "' is not a module version of module '"
                    + key.module() + "'");
        }
        if (v.meta() == null) {
            return refused(key, "ModuleNotPublished", "module " + key.module() + " has no ModuleReleaseMeta in "
                    + key.namespace() + "; publish a version first");
        }
        if (v.template() == null || v.template().componentDigest() == null) {
            return refused(key, "VersionNotPublished", "module " + key.module() + " " + key.version()
                    + " was not published by Rekon (no ModuleTemplate " + key.namespace() + "/" + key.templateName()
                    + " with a component digest); publish it first");
        }
        if (v.requireSignature() && (v.signature() == null || v.signature().status() != SignatureCheck.Status.VERIFIED)) {
            SignatureCheck s = v.signature();
            return refused(key, s == null ? "SignatureMissing" : s.reason(), "ModuleTemplate " + key.namespace() + "/"
                    + key.templateName() + " does not verify as rekon.modules.require-signature requires"
                    + (s == null ? "" : ": " + s.message()));
        }
        String current = v.meta().view().channels().get(key.channel());
        Optional<SemVer> at = SemVer.tryParse(current);
        if (current != null && current.equals(key.version())) {
            return PublishPlan.only(facts(Reply.unchanged("AlreadyOnChannel", "channel " + key.channel() + " of module "
                    + key.module() + " offers " + key.version() + " already", List.of(key.releaseMetaRef())), key, current));
        }
        if (at.isPresent() && at.get().compareTo(version.get()) > 0) {
            return refused(key, "DowngradeRefused", "channel " + key.channel() + " of module " + key.module()
                    + " offers " + current + ", newer than " + key.version() + "; a channel never moves back");
        }
        if (at.isPresent() && version.get().major() - at.get().major() > 1) {
            return refused(key, "MajorStepTooLarge", "channel " + key.channel() + " of module " + key.module()
                    + " offers " + current + " and " + key.version() + " is more than one major version away; promote"
                    + " a version of the major in between first");
        }
        String note = key.version() + " promoted from " + (current == null ? "nothing" : current)
                + " by dev.rekon.modules.promote";
        ChannelMove move = new ChannelMove(key.namespace(), key.module(), v.meta().ocmComponentName(), key.channel(), current, key.version(), note);
        return new PublishPlan(null, null, List.of(move), List.of(new Note(key.releaseMetaRef(), PROMOTED,
                "channel " + key.channel() + " moved " + (current == null ? "" : "from " + current + " ") + "to "
                        + key.version() + " by hand")),
                facts(Reply.applied(PROMOTED, "channel " + key.channel() + " of module " + key.module() + " moved "
                        + (current == null ? "" : "from " + current + " ") + "to " + key.version(),
                        List.of(key.releaseMetaRef())), key, current));
    }

    private static Reply facts(Reply r, PromoteKey key, String from) {
        return r.with("module", key.module()).with("channel", key.channel()).with("fromVersion", from)
                .with("toVersion", key.version()).with("channels", key.channel());
    }

    private static PublishPlan refused(PromoteKey key, String reason, String message) {
        return PublishPlan.only(Reply.rejected(reason, message, List.of()).with("module", key.module())
                .with("channel", key.channel()).with("toVersion", key.version()));
    }
}
