package dev.rekon.modules;

import java.util.List;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.rekon.core.RefusedException;
import dev.rekon.core.Reply;
import dev.rekon.modules.ModuleInput.Disable;
import dev.rekon.modules.ModuleInput.Enable;
import dev.rekon.modules.ModuleInput.Release;
import dev.rekon.modules.ModuleInput.ReleaseMetaChanged;
import dev.rekon.modules.ModuleInput.TemplateChanged;
import dev.rekon.modules.ModuleInput.Withdrawn;
import dev.rekon.modules.release.KymaKind;
import dev.rekon.pipeline.ApiRefusals;
import dev.rekon.pipeline.ReconcileLoop;
import dev.rekon.pipeline.Replies;

/**
 * Runs module image swaps: finds the releases an event offers ({@link ModuleReleases}) and has the one
 * {@link ReconcileLoop} bring each module in line ({@link ModuleReconciler}), answering with one reply.
 */
@ApplicationScoped
public class ModuleService {

    @Inject
    ReconcileLoop loop;

    @Inject
    ModuleReconciler modules;

    @Inject
    ModuleReleases releases;

    /** Reading which releases an event offers happens before any module's loop, so its refusal is answered here. */
    public Reply handle(ModuleInput input) {
        return ApiRefusals.asReply(List.of(), () -> dispatch(input));
    }

    /**
     * A release object an event named without carrying it (Reference mode); empty when it is gone or cannot be read
     * (the event's own reply says why).
     */
    public <V> Optional<V> read(KymaKind<V> kind, String namespace, String name) {
        try {
            return releases.read(kind, namespace, name);
        } catch (RefusedException e) {
            // The event's own reply says why the object is missing; the read only decides there is none to carry.
            return Optional.empty();
        }
    }

    private Reply dispatch(ModuleInput input) {
        if (input instanceof ReleaseMetaChanged m) {
            return reconcile(releases.ofReleaseMeta(m));
        }
        if (input instanceof TemplateChanged t) {
            return reconcile(releases.ofTemplate(t));
        }
        if (input instanceof Release r) {
            return loop.reconcile(modules, ModuleKey.release(r.release()));
        }
        if (input instanceof Enable e) {
            return loop.reconcile(modules, new ModuleKey.Switch(e.module(), true));
        }
        if (input instanceof Disable d) {
            return loop.reconcile(modules, new ModuleKey.Switch(d.module(), false));
        }
        Withdrawn w = (Withdrawn) input;
        return ModuleReleases.withdrawn(w.kind(), w.namespace(), w.name());
    }

    private Reply reconcile(List<ModuleReleases.Offer> offers) {
        return Replies.combine(offers.stream().map(o -> o instanceof ModuleReleases.Offer.Release r
                ? loop.reconcile(modules, ModuleKey.release(r.release()))
                : ((ModuleReleases.Offer.Nothing) o).reply()).toList());
    }
}
