package dev.rekon.modules.publish;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.rekon.modules.publish.apply.PublishBodies;
import dev.rekon.modules.publish.plan.PublishPlan;
import dev.rekon.modules.publish.plan.PublishViews;
import dev.rekon.modules.publish.plan.TemplateDraft;
import dev.rekon.modules.publish.source.ComponentRead;
import dev.rekon.modules.publish.source.ComponentVersion;
import dev.rekon.modules.release.SignatureCheck;

/**
 * What publication applies, byte for byte as earlier versions applied it (golden files): the ModuleTemplate made
 * from a component, the one a component carries, and the ModuleReleaseMeta's own fields.
 */
class PublishBodiesTest {

    static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    static ComponentVersion withManagerLabel() {
        ComponentVersion v = PublicationPlannerTest.version("0.4.3", PublicationPlannerTest.DIGEST,
                SignatureCheck.verified("ok"), true);
        ObjectNode label = ((ObjectNode) v.descriptor().path("component")).withArray("labels").addObject()
                .put("name", TemplateDraft.MANAGER_LABEL);
        label.putObject("value").put("group", "apps").put("version", "v1").put("kind", "Deployment")
                .put("name", "kpack-controller").put("namespace", "kpack");
        return v;
    }

    static ComponentVersion carrying() {
        ObjectNode carried = JSON.createObjectNode().put("apiVersion", "operator.kyma-project.io/v1beta2")
                .put("kind", "ModuleTemplate");
        ObjectNode meta = carried.putObject("metadata").put("name", "whatever");
        meta.putObject("labels").put("team", "kpack").put("operator.kyma-project.io/module-name", "old").put("n", 1);
        meta.putObject("annotations").put("note", "carried").put("rekon.dev/component-digest", "sha256:old");
        ObjectNode spec = carried.putObject("spec").put("channel", "fast").put("version", "0.4.3");
        spec.putObject("data").put("apiVersion", "operator.kpack.io/v1alpha1").put("kind", "Kpack");
        spec.putObject("info").put("repository", "https://github.com/buildpacks-community/kpack");
        ComponentVersion v = withManagerLabel();
        return new ComponentVersion(v.repository(), v.version(), v.digest(), v.descriptor(), v.component(),
                v.objects(), true, v.defaultCr(), carried, v.signature());
    }

    static PublishPlan publish(ComponentVersion v, PublishViews.Policy policy) {
        return PublicationPlannerTest.plan(PublicationPlannerTest.key("0.4.3"), policy, new ComponentRead.Found(v),
                null, null);
    }

    @Test
    void aTemplateMadeFromTheComponent() {
        assertGolden("template-made.json", PublishBodies.template(publish(withManagerLabel(), PublicationPlannerTest.FAST).template()));
    }

    @Test
    void theTemplateTheComponentCarries() {
        assertGolden("template-carried.json", PublishBodies.template(publish(carrying(), PublicationPlannerTest.FAST).template()));
    }

    @Test
    void theReleaseMetasOwnFields() {
        assertGolden("release-meta.json", PublishBodies.releaseMeta(publish(withManagerLabel(),
                new PublishViews.Policy(List.of(), false)).releaseMeta()));
    }

    /** Byte for byte: what the gateway hands to the apiserver is this tree, written in its field order. */
    static void assertGolden(String file, JsonNode actual) {
        Path golden = Path.of("src/test/resources/golden/modules", file);
        try {
            String written = JSON.writeValueAsString(actual) + "\n";
            if (Boolean.getBoolean("rekon.golden.update")) {
                Files.writeString(golden, written);
            }
            assertTrue(Files.exists(golden), "golden file " + golden + " is missing; write it with"
                    + " -Drekon.golden.update=true and review it:\n" + written);
            assertEquals(Files.readString(golden), written, "differs from golden file " + golden);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
