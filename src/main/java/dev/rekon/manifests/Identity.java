package dev.rekon.manifests;

import dev.rekon.core.ObjectRef;

/**
 * When two references name the same object: the same API group (not version: a manifest may move a kind to a
 * newer version), kind, namespace and name.
 */
public final class Identity {

    private Identity() {
    }

    public static String key(ObjectRef ref) {
        return group(ref.apiVersion()) + "/" + ref.kind() + "/" + (ref.namespace() == null ? "" : ref.namespace())
                + "/" + ref.name();
    }

    public static boolean same(ObjectRef a, ObjectRef b) {
        return key(a).equals(key(b));
    }

    public static String group(String apiVersion) {
        int slash = apiVersion == null ? -1 : apiVersion.indexOf('/');
        return slash < 0 ? "" : apiVersion.substring(0, slash);
    }
}
