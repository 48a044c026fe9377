package dev.rekon.modules.publish.apply;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.rekon.modules.publish.plan.ReleaseMetaDraft;
import dev.rekon.modules.publish.plan.TemplateDraft;
import dev.rekon.modules.release.KymaModules;

/**
 * The objects publication applies, the one place its drafts become JSON. The field order is the one earlier
 * versions wrote: the carried template's labels, annotations and spec fields first, Rekon's set over them in place.
 */
public final class PublishBodies {

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    private PublishBodies() {
    }

    public static ObjectNode template(TemplateDraft d) {
        ObjectNode t = JSON.objectNode().put("apiVersion", KymaModules.API_VERSION).put("kind", KymaModules.TEMPLATE);
        ObjectNode meta = t.putObject("metadata").put("name", d.name()).put("namespace", d.namespace());
        d.labels().forEach(meta.putObject("labels")::put);
        d.annotations().forEach(meta.putObject("annotations")::put);
        ObjectNode spec = d.carriedSpec() == null ? JSON.objectNode() : (ObjectNode) d.carriedSpec().deepCopy();
        spec.put("moduleName", d.module()).put("version", d.version()).set("descriptor", d.descriptor().deepCopy());
        if (d.data() != null) {
            spec.set("data", d.data().deepCopy());
        }
        if (d.manager() != null) {
            spec.set("manager", d.manager().deepCopy());
        }
        t.set("spec", spec);
        return t;
    }

    public static ObjectNode releaseMeta(ReleaseMetaDraft d) {
        ObjectNode m = JSON.objectNode().put("apiVersion", KymaModules.API_VERSION).put("kind", KymaModules.RELEASE_META);
        m.putObject("metadata").put("name", d.module()).put("namespace", d.namespace());
        m.putObject("spec").put("moduleName", d.module()).put("ocmComponentName", d.component());
        return m;
    }
}
