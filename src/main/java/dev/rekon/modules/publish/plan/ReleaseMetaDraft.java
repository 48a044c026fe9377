package dev.rekon.modules.publish.plan;

/**
 * A ModuleReleaseMeta's own fields, as publication applies them with Rekon's field manager: the module it is named
 * after and releases, and the OCM component it is published from. The gateway writes it ({@code PublishBodies}).
 */
public record ReleaseMetaDraft(String namespace, String module, String component) {

    static ReleaseMetaDraft of(PublishKey key) {
        return new ReleaseMetaDraft(key.namespace(), key.module(), key.component());
    }
}
