package dev.rekon.modules.publish.watch;

import java.util.LinkedHashMap;
import java.util.Map;

import jakarta.inject.Singleton;

import com.fasterxml.jackson.databind.JsonNode;

import dev.rekon.cluster.watch.KindFacet;
import dev.rekon.modules.publish.plan.PublishedMeta;
import dev.rekon.modules.publish.plan.PublishedTemplate;
import dev.rekon.modules.release.KymaKind;
import dev.rekon.modules.release.KymaModules;
import dev.rekon.modules.watch.ReleaseFacets;

/**
 * Kyma's release objects as publication reads them, each parsed once: when read live by the gateway, and as facets
 * of that kind's one watch (in every namespace) for the page's plan of the promotion rules.
 */
public final class PublishFacets {

    private PublishFacets() {
    }

    /** A ModuleTemplate as publication reads it: its view and the component digest Rekon recorded. */
    public static PublishedTemplate template(JsonNode t) {
        return new PublishedTemplate(KymaKind.TEMPLATE.view().apply(t),
                t.path("metadata").path("annotations").path(PublishedTemplate.DIGEST_ANNOTATION).asText(null));
    }

    /** A ModuleReleaseMeta as publication reads it: its view, its OCM component (null: none), its annotations. */
    public static PublishedMeta meta(JsonNode m) {
        Map<String, String> annotations = new LinkedHashMap<>();
        m.path("metadata").path("annotations").fields().forEachRemaining(e -> annotations.put(e.getKey(),
                e.getValue().asText()));
        String component = m.path("spec").path("ocmComponentName").asText("");
        return new PublishedMeta(KymaKind.RELEASE_META.view().apply(m), component.isBlank() ? null : component,
                annotations);
    }

    @Singleton
    public static class Metas extends KindFacet<PublishedMeta> {
        public Metas() {
            super(ReleaseFacets.kindOf(KymaModules.RELEASE_META));
        }

        @Override
        public PublishedMeta view(JsonNode object) {
            return meta(object);
        }
    }

    @Singleton
    public static class Templates extends KindFacet<PublishedTemplate> {
        public Templates() {
            super(ReleaseFacets.kindOf(KymaModules.TEMPLATE));
        }

        @Override
        public PublishedTemplate view(JsonNode object) {
            return template(object);
        }
    }
}
