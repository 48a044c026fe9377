package dev.rekon.modules.lifecycle.plan;

import java.util.List;

import dev.rekon.core.ObjectRef;
import dev.rekon.core.Reply;
import dev.rekon.modules.lifecycle.plan.LifecyclePlan.Action;

/** The reply a lifecycle plan gives: what happened to which module, with the module's facts. */
final class LifecycleReplies {

    private LifecycleReplies() {
    }

    static Reply of(LifecycleViews v, Action action, Release r, int applied, int pruned, List<ObjectRef> drifted) {
        String module = v.key().module();
        String from = v.inventory() == null ? null : v.inventory().version();
        String counts = applied + " object(s) applied, " + pruned + " pruned";
        Reply reply = switch (action) {
            case INSTALL -> Reply.applied("ModuleInstalled", "installed module " + module + " " + r.version()
                    + " from channel '" + r.channel() + "' (" + counts + ")", refs(v));
            case UPGRADE -> Reply.applied("ModuleUpgraded", "upgraded module " + module + " from " + from + " to "
                    + r.version() + " (" + counts + ")", refs(v));
            case REPAIR -> Reply.applied("ModuleDriftRepaired", "module " + module + " " + r.version() + ": "
                    + drifted.size() + " drifted object(s) taken back, " + counts, refs(v));
            default -> Reply.unchanged("ModuleInSync", "module " + module + " runs " + r.version() + " as channel '"
                    + r.channel() + "' offers; nothing to do", refs(v));
        };
        return facts(reply, module, from, r.version());
    }

    static Reply unchanged(LifecycleViews v, String reason, String message) {
        return facts(Reply.unchanged(reason, message, refs(v)), v.key().module(), version(v), null);
    }

    static Reply rejected(LifecycleViews v, String reason, String message) {
        return facts(Reply.rejected(reason, message, refs(v)), v.key().module(), version(v), null);
    }

    static Reply applied(LifecycleViews v, String reason, String message) {
        return facts(Reply.applied(reason, message, refs(v)), v.key().module(), version(v), null);
    }

    private static String version(LifecycleViews v) {
        return v.inventory() == null ? null : v.inventory().version();
    }

    private static List<ObjectRef> refs(LifecycleViews v) {
        return List.of(v.key().kymaRef());
    }

    private static Reply facts(Reply reply, String module, String from, String to) {
        return reply.with("module", module).with("fromVersion", from).with("toVersion", to);
    }
}
