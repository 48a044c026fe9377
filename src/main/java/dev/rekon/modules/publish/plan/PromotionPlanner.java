package dev.rekon.modules.publish.plan;

import java.util.List;
import java.util.Optional;

import dev.rekon.core.Reply;
import dev.rekon.core.SemVer;
import dev.rekon.modules.publish.plan.PublishPlan.ChannelMove;
import dev.rekon.modules.publish.plan.PublishPlan.Note;

/**
 * Decides a promotion by hand (pure): a channel moves to a version Rekon published, under the same
 * {@link PromotionPolicy} as promotions by soak (never back, one major version at most, a descriptor that still
 * verifies when signatures are required, inside the maintenance window).
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
        Optional<PromotionPolicy.Refusal> refusal = PromotionPolicy.verification(key.namespace(), key.module(),
                key.version(), v.template(), v.signature(), v.requireSignature());
        if (refusal.isPresent()) {
            return refused(key, refusal.get().reason(), refusal.get().message());
        }
        String current = v.meta().view().channels().get(key.channel());
        if (current != null && current.equals(key.version())) {
            return PublishPlan.only(facts(Reply.unchanged("AlreadyOnChannel", "channel " + key.channel() + " of module "
                    + key.module() + " offers " + key.version() + " already", List.of(key.releaseMetaRef())), key, current));
        }
        refusal = PromotionPolicy.step(key.module(), key.channel(), current, key.version())
                .or(() -> PromotionPolicy.window(v.window(), v.now(), "moving channel " + key.channel() + " of module "
                        + key.module() + " to " + key.version()));
        if (refusal.isPresent()) {
            return refused(key, refusal.get().reason(), refusal.get().message());
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
