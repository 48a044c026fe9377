package dev.rekon.buildpacks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.time.Instant;
import java.util.List;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.rekon.buildpacks.apply.KpackStatusBody;
import dev.rekon.buildpacks.plan.BuildpackStatusPlanner;
import dev.rekon.buildpacks.plan.BuildpackageLabels;
import dev.rekon.buildpacks.plan.StatusPlan;
import dev.rekon.buildpacks.view.BuildpackEntry;
import dev.rekon.buildpacks.view.BuildpackSource;
import dev.rekon.buildpacks.view.BuildpackView;
import dev.rekon.buildpacks.view.ImageRead;
import dev.rekon.registry.ImageReference;
import dev.rekon.registry.RegistryImage;

class BuildpackStatusPlannerTest {

    static final ObjectMapper JSON = new ObjectMapper();
    static final Instant T1 = Instant.parse("2026-01-01T10:00:00Z");
    static final Instant T2 = Instant.parse("2026-01-01T11:00:00Z");
    static final String IMAGE = "127.0.0.1:5000/paketo/java:8.9.0";
    static final String DIGEST = "sha256:" + "d".repeat(64);

    static RegistryImage javaImage() {
        try (InputStream in = BuildpackStatusPlannerTest.class.getResourceAsStream("/buildpacks/java-buildpackage-config.json")) {
            JsonNode config = JSON.readTree(in);
            String media = "application/vnd.oci.image.layer.v1.tar+gzip";
            return new RegistryImage(ImageReference.parse(IMAGE), DIGEST, "application/vnd.oci.image.manifest.v1+json",
                    List.of(new RegistryImage.Layer("sha256:" + "1".repeat(64), 1111, media),
                            new RegistryImage.Layer("sha256:" + "2".repeat(64), 2222, media),
                            new RegistryImage.Layer("sha256:" + "3".repeat(64), 3333, media)),
                    config);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    static BuildpackView buildpack(long generation, JsonNode status) {
        ObjectNode o = JSON.createObjectNode();
        o.put("apiVersion", "kpack.io/v1alpha2").put("kind", "Buildpack");
        o.putObject("metadata").put("name", "java").put("namespace", "team").put("generation", generation);
        o.putObject("spec").put("serviceAccountName", "puller").putObject("source").put("image", IMAGE);
        if (status != null) {
            o.set("status", status);
        }
        return BuildpackView.of(o);
    }

    static StatusPlan.Write write(StatusPlan plan) {
        return assertInstanceOf(StatusPlan.Write.class, plan);
    }

    /** The status patch as the gateway sends it. */
    static ObjectNode json(StatusPlan.Write w) {
        return KpackStatusBody.status(w.patch());
    }

    @Test
    void aPushOfTheNamedTagIsReadByItsDigestSinceTheTagMayNotHaveMovedYet() {
        BuildpackView bp = buildpack(1, null);
        ImageReference pushed = ImageReference.parse(IMAGE).withDigest(DIGEST);

        assertEquals(IMAGE + "@" + DIGEST, bp.imageToRead(pushed));
        assertEquals(IMAGE, bp.imageToRead(null));
        assertEquals(IMAGE, bp.imageToRead(ImageReference.parse("127.0.0.1:5000/paketo/java:9.0.0").withDigest(DIGEST)));
        assertEquals(IMAGE, bp.imageToRead(ImageReference.parse(IMAGE)), "a push without a digest: read the tag");
    }

    @Test
    void writesEveryBuildpackOfTheImageInKpackShape() throws IOException {
        StatusPlan.Write w = write(BuildpackStatusPlanner.plan(buildpack(3, null), new ImageRead.Found(javaImage()), T1));

        JsonNode expected = JSON.readTree("""
                {"observedGeneration":3,
                 "conditions":[{"type":"Ready","status":"True","reason":"BuildpackageRead",
                   "message":"read 3 buildpacks from 127.0.0.1:5000/paketo/java:8.9.0 (%s)",
                   "lastTransitionTime":"2026-01-01T10:00:00Z","observedGeneration":3}],
                 "buildpacks":[
                  {"id":"paketo-buildpacks/bellsoft-liberica","version":"9.9.0",
                   "buildpackage":{"id":"paketo-buildpacks/java","version":"8.9.0","homepage":"https://github.com/paketo-buildpacks/java"},
                   "storeImage":{"image":"127.0.0.1:5000/paketo/java:8.9.0"},
                   "diffId":"sha256:%s","digest":"sha256:%s","size":1111,"api":"0.7",
                   "homepage":"https://github.com/paketo-buildpacks/bellsoft-liberica",
                   "stacks":[{"id":"io.buildpacks.stacks.bionic"},{"id":"*"}]},
                  {"id":"paketo-buildpacks/ca-certificates","version":"3.4.0",
                   "buildpackage":{"id":"paketo-buildpacks/java","version":"8.9.0","homepage":"https://github.com/paketo-buildpacks/java"},
                   "storeImage":{"image":"127.0.0.1:5000/paketo/java:8.9.0"},
                   "diffId":"sha256:%s","digest":"sha256:%s","size":2222,"api":"0.7",
                   "homepage":"https://github.com/paketo-buildpacks/ca-certificates",
                   "stacks":[{"id":"io.buildpacks.stacks.bionic","mixins":["ca-certificates"]}]},
                  {"id":"paketo-buildpacks/java","version":"8.9.0",
                   "buildpackage":{"id":"paketo-buildpacks/java","version":"8.9.0","homepage":"https://github.com/paketo-buildpacks/java"},
                   "storeImage":{"image":"127.0.0.1:5000/paketo/java:8.9.0"},
                   "diffId":"sha256:%s","digest":"sha256:%s","size":3333,"api":"0.7",
                   "homepage":"https://github.com/paketo-buildpacks/java",
                   "order":[{"group":[{"id":"paketo-buildpacks/ca-certificates","version":"3.4.0","optional":true},
                                      {"id":"paketo-buildpacks/bellsoft-liberica","version":"9.9.0"}]}]}]}
                """.formatted(DIGEST, "b".repeat(64), "1".repeat(64), "c".repeat(64), "2".repeat(64),
                "a".repeat(64), "3".repeat(64)));
        assertEquals(expected, json(w));
        assertEquals(new dev.rekon.core.ObjectRef("kpack.io/v1alpha2", "Buildpack", "team", "java"), w.target());
    }

    @Test
    void theSameImageTwiceWritesNothing() {
        StatusPlan.Write first = write(BuildpackStatusPlanner.plan(buildpack(3, null), new ImageRead.Found(javaImage()), T1));

        StatusPlan again = BuildpackStatusPlanner.plan(buildpack(3, json(first)), new ImageRead.Found(javaImage()), T2);

        assertEquals("StatusUpToDate", assertInstanceOf(StatusPlan.NoChange.class, again).reason());
    }

    @Test
    void aNewGenerationWritesOnlyTheGenerationsAndKeepsTheTransitionTime() {
        StatusPlan.Write first = write(BuildpackStatusPlanner.plan(buildpack(3, null), new ImageRead.Found(javaImage()), T1));

        StatusPlan.Write next = write(BuildpackStatusPlanner.plan(buildpack(4, json(first)), new ImageRead.Found(javaImage()), T2));

        assertEquals(List.of("conditions", "observedGeneration"), fieldNames(json(next)));
        assertEquals("2026-01-01T10:00:00Z", json(next).at("/conditions/0/lastTransitionTime").asText());
        assertEquals(4, json(next).at("/conditions/0/observedGeneration").asLong());
    }

    @Test
    void anUnreadableImageDropsTheBuildpacksAndSaysWhy() {
        StatusPlan.Write first = write(BuildpackStatusPlanner.plan(buildpack(3, null), new ImageRead.Found(javaImage()), T1));

        StatusPlan.Write w = write(BuildpackStatusPlanner.plan(buildpack(3, json(first)),
                new ImageRead.Unreadable("ImageNotFound", "manifest unknown: " + IMAGE), T2));

        assertTrue(json(w).get("buildpacks").isNull());
        assertEquals("False", json(w).at("/conditions/0/status").asText());
        assertEquals("ImageNotFound", json(w).at("/conditions/0/reason").asText());
        assertEquals("manifest unknown: " + IMAGE, json(w).at("/conditions/0/message").asText());
        assertEquals("2026-01-01T11:00:00Z", json(w).at("/conditions/0/lastTransitionTime").asText());
    }

    @Test
    void anImageWithoutTheLabelsIsNoBuildpackage() {
        RegistryImage plain = new RegistryImage(ImageReference.parse(IMAGE), DIGEST, "m", List.of(), JSON.createObjectNode());

        StatusPlan.Write w = write(BuildpackStatusPlanner.plan(buildpack(1, null), new ImageRead.Found(plain), T1));

        assertEquals("NotABuildpackage", json(w).at("/conditions/0/reason").asText());
        assertEquals("image '" + IMAGE + "' has no label io.buildpacks.buildpackage.metadata; is it a buildpackage "
                + "(pack buildpack package)?", json(w).at("/conditions/0/message").asText());
    }

    @Test
    void aLabelNamingALayerTheImageLacksIsInvalid() {
        RegistryImage image = javaImage();
        RegistryImage twoLayers = new RegistryImage(image.reference(), DIGEST, image.mediaType(), image.layers().subList(0, 2),
                image.config());

        StatusPlan.Write w = write(BuildpackStatusPlanner.plan(buildpack(1, null), new ImageRead.Found(twoLayers), T1));

        assertEquals("InvalidBuildpackage", json(w).at("/conditions/0/reason").asText());
        assertEquals("buildpack 'paketo-buildpacks/java@8.9.0' names layer diffID 'sha256:" + "a".repeat(64)
                + "', which image '" + IMAGE + "' does not have; rebuild the buildpackage",
                json(w).at("/conditions/0/message").asText());
    }

    @Test
    void aLabelThatIsNotJsonIsInvalid() {
        ObjectNode config = javaImage().config().deepCopy();
        ((ObjectNode) config.path("config").path("Labels")).put(BuildpackageLabels.LAYERS, "{not json");
        RegistryImage image = new RegistryImage(ImageReference.parse(IMAGE), DIGEST, "m", List.of(), config);

        StatusPlan.Write w = write(BuildpackStatusPlanner.plan(buildpack(1, null), new ImageRead.Found(image), T1));

        assertEquals("InvalidBuildpackage", json(w).at("/conditions/0/reason").asText());
        assertTrue(json(w).at("/conditions/0/message").asText()
                .startsWith("label io.buildpacks.buildpack.layers of image '" + IMAGE + "' is not valid JSON: "));
    }

    @Test
    void noImageInTheSpec() {
        ObjectNode o = JSON.createObjectNode();
        o.put("kind", "ClusterBuildpack");
        o.putObject("metadata").put("name", "empty").put("generation", 1);

        StatusPlan.Write w = write(BuildpackStatusPlanner.plan(BuildpackView.of(o), null, T1));

        assertEquals("NoImage", json(w).at("/conditions/0/reason").asText());
        assertEquals("ClusterBuildpack empty names no image; set spec.source.image", json(w).at("/conditions/0/message").asText());
    }

    @Test
    void aClusterBuildpackTakesItsPullSecretsFromServiceAccountRef() throws IOException {
        BuildpackView v = BuildpackView.of(JSON.readTree("""
                {"kind":"ClusterBuildpack","metadata":{"name":"java","generation":2},
                 "spec":{"source":{"image":"%s"},"serviceAccountRef":{"name":"puller","namespace":"kpack"}}}
                """.formatted(IMAGE)));

        assertEquals(List.of("kpack", "puller", IMAGE), List.of(v.serviceAccountNamespace(), v.serviceAccountName(), v.image()));
    }

    @Test
    void theStatusWrittenIsReadBackAsTheSameSource() {
        StatusPlan.Write w = write(BuildpackStatusPlanner.plan(buildpack(3, null), new ImageRead.Found(javaImage()), T1));

        BuildpackSource source = buildpack(3, json(w)).asSource();

        assertEquals(List.of("paketo-buildpacks/bellsoft-liberica@9.9.0", "paketo-buildpacks/ca-certificates@3.4.0",
                "paketo-buildpacks/java@8.9.0"), source.buildpacks().stream().map(BuildpackEntry::key).toList());
        assertEquals(1, source.buildpacks().get(2).order().size());
    }

    static List<String> fieldNames(JsonNode n) {
        List<String> names = new java.util.ArrayList<>();
        n.fieldNames().forEachRemaining(names::add);
        return names.stream().sorted().toList();
    }
}
