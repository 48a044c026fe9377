package dev.rekon.modules.publish.plan;

import dev.rekon.modules.release.ModuleTemplateView;

/**
 * A ModuleTemplate as publication reads it: its view, and the component version digest Rekon recorded when it
 * published it (annotation {@value #DIGEST_ANNOTATION}), null for a template Rekon did not publish.
 */
public record PublishedTemplate(ModuleTemplateView view, String componentDigest) {

    public static final String DIGEST_ANNOTATION = "rekon.dev/component-digest";
    public static final String COMPONENT_ANNOTATION = "rekon.dev/component";
}
