package dev.rekon.promotions.apply;

import java.util.Optional;

import dev.rekon.cluster.watch.FacetViews;
import dev.rekon.cluster.watch.SharedWatches;
import dev.rekon.promotions.watch.KubeconfigSecretFacet;
import io.fabric8.kubernetes.api.model.Secret;

/**
 * Decides whether reading a stage's kubeconfig Secret needs a call. Each Secret a remote stage names is watched by
 * its name alone, in the ImagePromotion's own namespace, from its first read, by the shared watches
 * ({@link FacetViews#named}): where a Role grants {@code get}, {@code list} and {@code watch} on that name, and once
 * that watch has synced, the Secret is taken from it as the apiserver has it, and a rotated or deleted kubeconfig
 * shows as soon as the watch delivers the change. Until then, and while the apiserver refuses the watch (a Role
 * granting only {@code get}) or it failed, the Secret is read; the shared watches try it again later, and never log
 * its content.
 */
final class KubeconfigSecretWatches {

    /** A Secret as its watch holds it: {@code secret} null when there is none. */
    record Held(Secret secret) {
    }

    private final SharedWatches watches;
    private final KubeconfigSecretFacet facet;

    KubeconfigSecretWatches(SharedWatches watches, KubeconfigSecretFacet facet) {
        this.watches = watches;
        this.facet = facet;
    }

    /** The Secret as its watch holds it; empty when the watch cannot tell (not synced, refused, failed): read it. */
    Optional<Held> held(String namespace, String name) {
        return watches.of(facet).named(namespace, name).map(found -> new Held(found.isEmpty() ? null
                : found.get(0).view()));
    }
}
