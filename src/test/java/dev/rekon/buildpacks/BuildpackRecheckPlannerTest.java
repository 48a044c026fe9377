package dev.rekon.buildpacks;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.stream.Stream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.rekon.buildpacks.plan.BuildpackRecheckPlanner;
import dev.rekon.buildpacks.plan.BuildpackStatusPlanner;
import dev.rekon.buildpacks.plan.RecheckView;
import dev.rekon.buildpacks.view.BuildpackView;
import dev.rekon.buildpacks.view.ImageHead;
import dev.rekon.core.ObjectRef;

/** When one manifest HEAD makes a resync refresh a Buildpack's status, and when it leaves it alone. */
class BuildpackRecheckPlannerTest {

    static final ObjectMapper JSON = new ObjectMapper();
    static final String IMAGE = "127.0.0.1:5000/bp/java:1";
    static final String OLD = "sha256:" + "a".repeat(64);
    static final String NEW = "sha256:" + "b".repeat(64);
    static final ObjectRef REF = new ObjectRef(BuildpackView.API_VERSION, "Buildpack", "team", "java");

    static RecheckView read(String digest) {
        return new RecheckView(REF, IMAGE, "team", null, true, BuildpackStatusPlanner.READ, digest);
    }

    static Stream<Arguments> cases() {
        ImageHead atOld = new ImageHead.Digest(OLD);
        ImageHead atNew = new ImageHead.Digest(NEW);
        ImageHead gone = new ImageHead.Unreadable("ImageNotFound", "manifest unknown");
        RecheckView notFound = new RecheckView(REF, IMAGE, "team", null, true, "ImageNotFound", null);
        return Stream.of(
                Arguments.of("same digest", read(OLD), atOld, null, false, "DigestUnchanged"),
                Arguments.of("digest moved", read(OLD), atNew, null, true, "DigestMoved"),
                Arguments.of("index seen converged before", read(OLD), atNew, NEW, false, "DigestUnchanged"),
                Arguments.of("index moved again", read(OLD), atNew, "sha256:" + "c".repeat(64), true, "DigestMoved"),
                Arguments.of("image deleted", read(OLD), gone, null, true, "ImageUnreadable"),
                Arguments.of("still not found", notFound, gone, null, false, "ImageNotFound"),
                Arguments.of("found again", notFound, atNew, null, true, "DigestMoved"),
                Arguments.of("older generation", new RecheckView(REF, IMAGE, "team", null, false, null, null), null,
                        null, true, "SpecChanged"),
                Arguments.of("no image, already said", new RecheckView(REF, null, "team", null, true,
                        BuildpackStatusPlanner.NO_IMAGE, null), null, null, false, "NoImage"),
                Arguments.of("no image any more", new RecheckView(REF, null, "team", null, true,
                        BuildpackStatusPlanner.READ, OLD), null, null, true, "NoImage"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void refreshesOnlyWhenTheImageMoved(String name, RecheckView bp, ImageHead head, String seen, boolean refresh,
            String reason) {
        BuildpackRecheckPlanner.Recheck r = BuildpackRecheckPlanner.plan(bp, head, seen);
        assertEquals(refresh, r.refresh());
        assertEquals(reason, r.reason());
    }

    @org.junit.jupiter.api.Test
    void readsTheDigestAndGenerationFromTheStatusItWrote() throws Exception {
        JsonNode object = JSON.readTree("""
                {"kind":"Buildpack","metadata":{"name":"java","namespace":"team","generation":2},
                 "spec":{"serviceAccountName":"puller","source":{"image":"%s"}},
                 "status":{"observedGeneration":2,"conditions":[{"type":"Ready","status":"True",
                   "reason":"BuildpackageRead","message":"read 1 buildpacks from %s (%s)"}]}}"""
                .formatted(IMAGE, IMAGE, OLD));
        assertEquals(new RecheckView(REF, IMAGE, "team", "puller", true, BuildpackStatusPlanner.READ, OLD),
                RecheckView.of(BuildpackView.of(object)));
    }
}
