package dev.rekon.modules.publish.plan;

import dev.rekon.core.ObjectRef;
import dev.rekon.modules.release.KymaModules;

/** A channel to move, by hand, to a published version of a module. */
public record PromoteKey(String namespace, String module, String channel, String version) {

    public ObjectRef releaseMetaRef() {
        return new ObjectRef(KymaModules.API_VERSION, KymaModules.RELEASE_META, namespace, module);
    }

    public String templateName() {
        return module + "-" + version;
    }
}
