package dev.rekon.modules.publish.plan;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

import dev.rekon.core.ObjectRef;
import dev.rekon.core.Reply;
import dev.rekon.core.SemVer;
import dev.rekon.modules.publish.plan.PromotionPlan.Notice;
import dev.rekon.modules.publish.plan.PublishPlan.ChannelMove;
import dev.rekon.modules.release.KymaModules;

/**
 * Decides the promotions of one published module by its soak rules (pure): for each rule
 * {@code target=source+soak}, the version {@code source} offers moves to {@code target} once every Kyma following the
 * module on {@code source} has run it {@code Ready} for the soak, under {@link PromotionPolicy}. A Kyma failing
 * ({@code Error}, {@code Warning}) blocks the promotion and a Kyma not yet running it {@code Ready} holds it; either
 * restarts the soak. When the soak began is kept on the release meta ({@value #SOAK_PREFIX}{@code <channel>}:
 * {@code <version>@<instant>}), where restarts and replicas find it, beside each rule's state
 * ({@value #STATUS_PREFIX}{@code <channel>}); both are written only when they change, with an Event.
 */
public final class SoakPlanner {

    public static final String SOAK_PREFIX = "rekon.dev/soak.";
    public static final String STATUS_PREFIX = "rekon.dev/promotion.";

    private SoakPlanner() {
    }

    public static PromotionPlan plan(SoakViews v) {
        ObjectRef ref = new ObjectRef(KymaModules.API_VERSION, KymaModules.RELEASE_META, v.namespace(), v.module());
        Map<String, String> desired = new TreeMap<>();
        List<ChannelMove> moves = new ArrayList<>();
        List<Notice> events = new ArrayList<>();
        List<ChannelPromotion> states = new ArrayList<>();
        for (PromotionRule rule : v.policy().rules()) {
            ChannelPromotion s = decide(v, rule);
            if (ChannelPromotion.PROMOTED.equals(s.state())) {
                String note = s.candidate() + " promoted from " + (s.offers() == null ? "nothing" : s.offers())
                        + " after running Ready on " + rule.source() + " for " + PromotionRule.text(rule.soak())
                        + " since " + s.since();
                moves.add(new ChannelMove(v.namespace(), v.module(), v.meta().ocmComponentName(), rule.target(),
                        s.offers(), s.candidate(), note));
                events.add(new Notice(false, PromotionPlanner.PROMOTED, "channel " + rule.target() + " moved "
                        + (s.offers() == null ? "" : "from " + s.offers() + " ") + "to " + s.candidate() + ": " + s.message()));
                states.add(s);
                s = converged(rule, s.candidate(), s.candidate());
            } else {
                states.add(s);
                if (!s.annotation().equals(v.meta().annotations().get(STATUS_PREFIX + rule.target()))) {
                    events.add(new Notice(ChannelPromotion.BLOCKED.equals(s.state()), s.reason(), "channel "
                            + rule.target() + ": " + s.message()));
                }
            }
            desired.put(STATUS_PREFIX + rule.target(), s.annotation());
            if (s.since() != null) {
                desired.put(SOAK_PREFIX + rule.target(), s.candidate() + "@" + s.since());
            }
        }
        Map<String, String> current = new TreeMap<>();
        v.meta().annotations().forEach((k, val) -> {
            if (k.startsWith(SOAK_PREFIX) || k.startsWith(STATUS_PREFIX)) {
                current.put(k, val);
            }
        });
        Map<String, String> write = desired.equals(current) ? null : desired;
        if (write == null && moves.isEmpty()) {
            events.clear();
        }
        ModuleReport report = PromotionReports.report(v, states);
        return new PromotionPlan(ref, v.meta().view().resourceVersion(), write, moves, events, report,
                reply(v, ref, states, !moves.isEmpty() || write != null));
    }

    static ChannelPromotion decide(SoakViews v, PromotionRule rule) {
        Map<String, String> channels = v.meta().view().channels();
        String offers = channels.get(rule.target());
        String candidate = channels.get(rule.source());
        if (candidate == null) {
            return state(rule, offers, null, ChannelPromotion.HELD, "NoSourceVersion", "channel " + rule.source()
                    + " offers no version of module " + v.module(), null);
        }
        Optional<SemVer> to = SemVer.tryParse(candidate);
        Optional<SemVer> at = SemVer.tryParse(offers);
        if (to.isPresent() && at.isPresent() && at.get().compareTo(to.get()) >= 0) {
            return converged(rule, offers, candidate);
        }
        Optional<SoakViews.Version> version = v.version(candidate);
        Optional<PromotionPolicy.Refusal> refusal = PromotionPolicy.verification(v.namespace(), v.module(), candidate,
                version.map(SoakViews.Version::template).orElse(null),
                version.map(SoakViews.Version::signature).orElse(null), v.policy().requireSignature())
                .or(() -> PromotionPolicy.step(v.module(), rule.target(), offers, candidate));
        if (refusal.isPresent()) {
            return state(rule, offers, candidate, ChannelPromotion.BLOCKED, refusal.get().reason(),
                    refusal.get().message(), null);
        }
        List<KymaFollower> followers = v.kymas().stream().filter(k -> rule.source().equals(k.channel())).toList();
        if (followers.isEmpty()) {
            return state(rule, offers, candidate, ChannelPromotion.HELD, "NoKymaOnSourceChannel", "no Kyma in "
                    + v.namespace() + " lists module " + v.module() + " on channel " + rule.source() + "; " + candidate
                    + " soaks only where it runs", null);
        }
        List<String> failing = followers.stream().filter(KymaFollower::failing).map(k -> k.describe() + " runs "
                + v.module() + " " + k.version() + " in state " + k.state() + (k.message() == null ? "" : ": "
                        + k.message())).toList();
        if (!failing.isEmpty()) {
            return state(rule, offers, candidate, ChannelPromotion.BLOCKED, "KymaUnhealthy", String.join("; ", failing)
                    + "; the soak of " + candidate + " on " + rule.source() + " starts again once every Kyma runs it"
                    + " Ready", null);
        }
        List<String> waiting = followers.stream().filter(k -> !k.ready(candidate)).map(k -> k.describe() + " runs "
                + v.module() + " " + (k.version() == null ? "nothing yet" : k.version()) + " ("
                + (k.state() == null ? "no status" : k.state()) + ")").toList();
        if (!waiting.isEmpty()) {
            return state(rule, offers, candidate, ChannelPromotion.HELD, "KymaNotReady", String.join("; ", waiting)
                    + ", not " + candidate + " Ready; the soak starts once every Kyma on " + rule.source() + " does", null);
        }
        Instant since = soakingSince(v, rule.target(), candidate).orElse(v.now());
        Instant due = since.plus(rule.soak());
        String ran = candidate + " has run Ready on " + followers.size() + " Kyma(s) following " + rule.source()
                + " since " + since;
        if (v.now().isBefore(due)) {
            return new ChannelPromotion(rule.target(), rule.source(), offers, candidate, ChannelPromotion.SOAKING,
                    "Soaking", ran + "; " + rule.target() + " moves to it at " + due, since, due);
        }
        Optional<PromotionPolicy.Refusal> window = PromotionPolicy.window(v.policy().window(), v.now(), "moving channel "
                + rule.target() + " to " + candidate);
        if (window.isPresent()) {
            return new ChannelPromotion(rule.target(), rule.source(), offers, candidate, ChannelPromotion.HELD,
                    window.get().reason(), ran + "; " + window.get().message(), since, due);
        }
        return new ChannelPromotion(rule.target(), rule.source(), offers, candidate, ChannelPromotion.PROMOTED,
                PromotionPlanner.PROMOTED, ran, since, due);
    }

    /** When the soak of {@code version} toward {@code channel} began, as the release meta records it. */
    static Optional<Instant> soakingSince(SoakViews v, String channel, String version) {
        String recorded = v.meta().annotations().get(SOAK_PREFIX + channel);
        int at = recorded == null ? -1 : recorded.lastIndexOf('@');
        if (at < 0 || !recorded.substring(0, at).equals(version)) {
            return Optional.empty();
        }
        try {
            Instant since = Instant.parse(recorded.substring(at + 1));
            return since.isAfter(v.now()) ? Optional.empty() : Optional.of(since);
        } catch (DateTimeParseException e) {
            return Optional.empty();
        }
    }

    private static ChannelPromotion converged(PromotionRule rule, String offers, String candidate) {
        return state(rule, offers, candidate, ChannelPromotion.CONVERGED, "Converged", "channel " + rule.target()
                + " offers " + offers + (offers.equals(candidate) ? ", as " + rule.source() + " does"
                        : ", newer than " + rule.source() + "'s " + candidate), null);
    }

    private static ChannelPromotion state(PromotionRule rule, String offers, String candidate, String state,
            String reason, String message, Instant since) {
        return new ChannelPromotion(rule.target(), rule.source(), offers, candidate, state, reason, message, since, null);
    }

    private static Reply reply(SoakViews v, ObjectRef ref, List<ChannelPromotion> states, boolean writes) {
        String text = String.join("; ", states.stream().map(s -> s.channel() + " " + s.annotation()).toList());
        Optional<ChannelPromotion> promoted = states.stream()
                .filter(s -> ChannelPromotion.PROMOTED.equals(s.state())).findFirst();
        Optional<ChannelPromotion> lead = states.stream()
                .filter(s -> !ChannelPromotion.CONVERGED.equals(s.state())).findFirst();
        Reply r;
        if (states.isEmpty()) {
            String message = "no rule of rekon.modules.publish.promotions moves a channel of module " + v.module();
            r = writes ? Reply.applied("NoPromotionRules", message + "; the records of earlier rules removed", List.of(ref))
                    : Reply.unchanged("NoPromotionRules", message, List.of(ref));
        } else if (promoted.isPresent()) {
            r = Reply.applied(PromotionPlanner.PROMOTED, text, List.of(ref)).with("channel", promoted.get().channel())
                    .with("fromVersion", promoted.get().offers()).with("toVersion", promoted.get().candidate());
        } else if (writes) {
            r = Reply.applied(lead.map(ChannelPromotion::reason).orElse("Converged"), text, List.of(ref));
        } else {
            r = Reply.unchanged(lead.map(ChannelPromotion::reason).orElse("Converged"), text, List.of(ref));
        }
        return r.with("module", v.module());
    }
}
