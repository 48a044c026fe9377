package dev.rekon.modules.publish.plan;

import dev.rekon.core.ObjectRef;
import dev.rekon.modules.release.KymaModules;

/** The promotions of one published module: its ModuleReleaseMeta {@code namespace/module}. */
public record SoakKey(String namespace, String module) {

    public ObjectRef releaseMetaRef() {
        return new ObjectRef(KymaModules.API_VERSION, KymaModules.RELEASE_META, namespace, module);
    }
}
