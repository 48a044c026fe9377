package dev.rekon.cluster;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;

/**
 * Name-only objects to patch through. fabric8 GETs an object before patching it by name unless it is handed
 * the object, which doubles the round trips of every patch; the patch body carries everything the apiserver
 * needs (including the resourceVersion precondition), so the object only has to name the target.
 */
public final class PatchTargets {

    private PatchTargets() {
    }

    public static GenericKubernetesResource generic(String apiVersion, String kind, String namespace, String name) {
        GenericKubernetesResource r = new GenericKubernetesResource();
        r.setApiVersion(apiVersion);
        r.setKind(kind);
        r.setMetadata(meta(namespace, name));
        return r;
    }

    private static io.fabric8.kubernetes.api.model.ObjectMeta meta(String namespace, String name) {
        return new ObjectMetaBuilder().withNamespace(namespace).withName(name).build();
    }
}
