package dev.rekon.buildpacks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.rekon.buildpacks.status.BuildRows;
import dev.rekon.buildpacks.status.BuildSection;
import dev.rekon.buildpacks.status.BuildSection.BuilderRow;
import dev.rekon.buildpacks.status.BuildSection.BuildpackRow;
import dev.rekon.buildpacks.view.BuilderView;
import dev.rekon.buildpacks.view.BuildpackView;
import dev.rekon.buildpacks.view.ImageRead;
import dev.rekon.registry.ImageReference;
import dev.rekon.registry.RegistryImage;
import dev.rekon.status.StatusReport;

/**
 * The buildpacks' rows of the page are the loop's report-mode plans, made from the objects as their watches hold
 * them and the buildpackages this process already read: a status edited by hand, a spec changed with no event
 * yet, a Builder's order changed, each shows what the next event writes, not what is written; a buildpackage this
 * process never read is said so. The page reads no image.
 */
class BuildpackReportTest {

    static final Instant NOW = Instant.parse("2026-11-23T10:00:00Z");

    InMemoryBuildpacks cluster;
    BuildpackService service;

    @BeforeEach
    void converged() {
        cluster = new InMemoryBuildpacks();
        BuildpackServiceTest.PUBLISHED.accept(cluster);
        service = BuildpackServiceTest.service(cluster);
        service.handle(BuildpackServiceTest.JAVA_CHANGED);
        cluster.writes.clear();
        cluster.imageReads.clear();
    }

    BuildSection page() {
        List<BuildpackView> bps = new ArrayList<>();
        List<BuilderView> bs = new ArrayList<>();
        for (ObjectNode o : cluster.objects.values()) {
            if (o.path("kind").asText().endsWith("Buildpack")) {
                bps.add(BuildpackView.of(o.deepCopy()));
            } else {
                bs.add(BuilderView.of(o.deepCopy()));
            }
        }
        StatusReport report = BuildpackReport.over(service).planned(StatusReport.empty(NOW, null), bps, bs, null, NOW);
        assertEquals(List.of(), cluster.imageReads, "the page reads no image");
        assertEquals(List.of(), cluster.writes, "the page writes nothing");
        return report.section(BuildSection.class);
    }

    static BuildpackRow java(BuildSection s) {
        return s.buildpacks().stream().filter(r -> r.name().equals("java")).findFirst().orElseThrow();
    }

    static BuilderRow builder(BuildSection s) {
        return s.builders().stream().filter(r -> r.name().equals("builder")).findFirst().orElseThrow();
    }

    ObjectNode object(String name) {
        return BuildpackPropertyTest.find(cluster, name, "ClusterBuildpack", "Builder");
    }

    @Test
    void aConvergedAreaShowsWhatIsWritten() {
        BuildSection s = page();
        assertEquals("True", java(s).ready());
        assertEquals("BuildpackageRead", java(s).reason());
        assertEquals(BuildpackStatusPlannerTest.DIGEST, java(s).digest());
        assertEquals("True", builder(s).ready());
        assertEquals("Resolved", builder(s).reason());
    }

    @Test
    void aStatusEditedByHandShowsThePlannedRowNotTheWrittenOne() {
        ObjectNode ready = (ObjectNode) object("java").at("/status/conditions/0");
        ready.put("status", "False").put("reason", "EditedByHand").put("message", "not so");
        ((ObjectNode) object("java").get("status")).remove("buildpacks");
        ((ObjectNode) object("builder").get("status")).remove("order");
        BuildSection s = page();
        assertEquals("True", java(s).ready());
        assertEquals("BuildpackageRead", java(s).reason());
        assertFalse(java(s).buildpacks().isEmpty(), "the buildpacks the next event writes again");
        assertEquals(1, builder(s).order().size(), builder(s).order().toString());
        assertTrue(builder(s).order().get(0).contains("paketo-buildpacks/java@"), builder(s).order().toString());
    }

    @Test
    void aSpecNamingAnImageNeverReadSaysSoInsteadOfTheWrittenStatus() {
        ((ObjectNode) object("java").at("/spec/source")).put("image", "127.0.0.1:5000/paketo/java:9.0.0");
        ((ObjectNode) object("java").get("metadata")).put("generation", 2);
        BuildSection s = page();
        assertEquals("Unknown", java(s).ready());
        assertEquals(BuildRows.NOT_READ, java(s).reason());
        assertEquals("127.0.0.1:5000/paketo/java:9.0.0", java(s).image());
        assertNull(java(s).digest());
        assertTrue(java(s).message().contains("127.0.0.1:5000/paketo/java:9.0.0"), java(s).message());
    }

    @Test
    void aBuilderWhoseOrderChangedWithNoEventShowsItsPlannedResolution() {
        ObjectNode group = (ObjectNode) object("builder").at("/spec/order/0/group/0");
        group.put("id", "acme/missing");
        ((ObjectNode) object("builder").get("metadata")).put("generation", 2);
        BuildSection s = page();
        assertEquals("PreviousOrderKept", builder(s).reason(), builder(s).toString());
    }

    @Test
    void aBuildpackWithNoImageIsPlannedWithoutARead() {
        ((ObjectNode) object("java").get("spec")).remove("source");
        BuildSection s = page();
        assertEquals("False", java(s).ready());
        assertEquals("NoImage", java(s).reason());
        assertEquals(true, java(s).problem());
    }

    /** An image a Builder names directly that is no buildpackage fails that Builder's row, not the page. */
    @Test
    void aBuilderNamingAnImageThatIsNoBuildpackageFailsItsRowNotThePage() {
        String plain = "registry.local/plain/app:1";
        cluster.images.put(plain, new ImageRead.Found(new RegistryImage(ImageReference.parse(plain), "sha256:"
                + "e".repeat(64), "application/vnd.oci.image.manifest.v1+json", List.of(),
                BuildpackServiceTest.JSON.createObjectNode())));
        ((ObjectNode) object("builder").at("/spec/order/0/group/0")).removeAll().put("image", plain);
        object("builder").remove("status");
        dev.rekon.core.Reply reply = service.handle(new BuildpackInput.BuilderChanged("Builder", "team", "builder"));
        cluster.writes.clear();
        cluster.imageReads.clear();
        BuildSection s = page();
        assertEquals(true, builder(s).problem(), builder(s).toString());
        assertTrue(builder(s).error().contains("io.buildpacks.buildpackage.metadata"), builder(s) + " " + reply);
    }
}
