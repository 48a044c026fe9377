package dev.rekon.modules.publish.status;

import java.util.Map;
import java.util.TreeMap;

import jakarta.inject.Singleton;

import com.fasterxml.jackson.databind.JsonNode;

import dev.rekon.cluster.watch.KindFacet;
import dev.rekon.modules.publish.plan.SoakPlanner;
import dev.rekon.modules.release.KymaModules;
import dev.rekon.modules.watch.ReleaseFacets;

/**
 * ModuleReleaseMetas as the page's promotion rows read them, from the release metas' one watch: what each channel
 * offers, and what the promotion rules' last plans wrote ({@value SoakPlanner#STATUS_PREFIX}{@code <channel>},
 * {@value SoakPlanner#SOAK_PREFIX}{@code <channel>}); none for a release meta no rule moves.
 */
@Singleton
public class PromotionFacet extends KindFacet<PromotionFacet.Rules> {

    /** One release meta's channels and its rules' records, each by channel. */
    public record Rules(String namespace, String module, Map<String, String> offers, Map<String, String> states,
            Map<String, String> soaks) {
    }

    public PromotionFacet() {
        super(ReleaseFacets.kindOf(KymaModules.RELEASE_META));
    }

    @Override
    public Rules view(JsonNode object) {
        Map<String, String> states = new TreeMap<>();
        Map<String, String> soaks = new TreeMap<>();
        object.path("metadata").path("annotations").fields().forEachRemaining(a -> {
            if (a.getKey().startsWith(SoakPlanner.STATUS_PREFIX)) {
                states.put(a.getKey().substring(SoakPlanner.STATUS_PREFIX.length()), a.getValue().asText());
            } else if (a.getKey().startsWith(SoakPlanner.SOAK_PREFIX)) {
                soaks.put(a.getKey().substring(SoakPlanner.SOAK_PREFIX.length()), a.getValue().asText());
            }
        });
        if (states.isEmpty()) {
            return null;
        }
        Map<String, String> offers = new TreeMap<>();
        object.path("spec").path("channels").forEach(c -> offers.put(c.path("channel").asText(), c.path("version")
                .asText()));
        return new Rules(object.path("metadata").path("namespace").asText(), object.path("metadata").path("name")
                .asText(), offers, states, soaks);
    }
}
