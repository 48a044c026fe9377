package dev.rekon.rollouts.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Instant;
import java.util.Optional;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.rekon.core.SemVer;
import dev.rekon.registry.ImageReference;
import dev.rekon.rollouts.apply.ImageDeployStatusBody;
import dev.rekon.rollouts.apply.ImagePatchBody;
import dev.rekon.rollouts.view.DeploymentView;
import dev.rekon.rollouts.view.ImageDeployView;

/** Table tests of what a registry push does to an ImageDeploy under its update policy. */
class PushRolloutPlannerTest {

    static final ObjectMapper JSON = new ObjectMapper();
    static final Instant NOW = Instant.parse("2026-11-22T10:00:00Z");
    static final String REPO = "registry.local:5000/team/api";
    static final String D1 = "sha256:" + "1".repeat(64);
    static final String D2 = "sha256:" + "2".repeat(64);

    final PushRolloutPlanner planner = new PushRolloutPlanner();

    static JsonNode json(String text) {
        try {
            return JSON.readTree(text);
        } catch (Exception e) {
            throw new IllegalArgumentException(e);
        }
    }

    /** An ImageDeploy: container api follows REPO directly, web comes from a kpack Image, status as given. */
    static JsonNode imageDeploy(String policy, String status) {
        return json("""
                {"apiVersion": "rekon.dev/v1alpha1", "kind": "ImageDeploy",
                 "metadata": {"name": "shop", "namespace": "team", "uid": "u1", "resourceVersion": "7", "generation": 2},
                 "spec": {%s"deployment": {"metadata": {"name": "shop-api"}, "spec": {"template": {"spec": {
                   "initContainers": [{"name": "schema", "image": "%s:1.0.0"}],
                   "containers": [{"name": "api", "image": "%s:1.2.0"}, {"name": "web", "image": "REF=web"}]}}}}},
                 "status": %s}
                """.formatted(policy == null ? "" : "\"updatePolicy\": " + policy + ", ", REPO, REPO, status));
    }

    static DeploymentView live(String apiImage) {
        return DeploymentView.fromJson(json("""
                {"metadata": {"name": "shop-api", "resourceVersion": "41"},
                 "spec": {"template": {"spec": {"containers": [{"name": "api", "image": "%s"},
                   {"name": "web", "image": "registry.local/team/web@sha256:%s"}]}}}}
                """.formatted(apiImage, "9".repeat(64))));
    }

    /** The status the plan writes over an empty one, as the gateway sends it. */
    static JsonNode written(RolloutPlan plan) {
        return ImageDeployStatusBody.of(JSON.createObjectNode(), plan.status());
    }

    RolloutPlan plan(String policy, String status, String running, String tag, String digest) {
        JsonNode idp = imageDeploy(policy, status);
        return planner.plan(new PushRolloutPlanner.Request(ImageDeployView.fromJson(idp), idp.path("spec"),
                new ImageReference("registry.local:5000", "team/api", tag, digest),
                Optional.ofNullable(running == null ? null : live(running)), NOW));
    }

    static Stream<Arguments> decisions() {
        String semver = "{\"semver\": \"^1.2\"}";
        return Stream.of(
                Arguments.of("caret range takes a minor", semver, REPO + ":1.2.0", "1.3.0", "ImageUpdated"),
                Arguments.of("caret range refuses the next major", semver, REPO + ":1.2.0", "2.0.0", "OutsidePolicy"),
                Arguments.of("explicit range", "{\"semver\": \">=1.2.0 <1.5.0\"}", REPO + ":1.2.0", "1.4.9", "ImageUpdated"),
                Arguments.of("explicit range upper bound", "{\"semver\": \">=1.2.0 <1.5.0\"}", REPO + ":1.2.0", "1.5.0", "OutsidePolicy"),
                Arguments.of("tilde keeps the minor", "{\"semver\": \"~1.2\"}", REPO + ":1.2.0", "1.3.0", "OutsidePolicy"),
                Arguments.of("level patch takes a patch", "{\"level\": \"patch\"}", REPO + ":1.2.0", "1.2.7", "ImageUpdated"),
                Arguments.of("level patch refuses a minor", "{\"level\": \"patch\"}", REPO + ":1.2.0", "1.3.0", "OutsidePolicy"),
                Arguments.of("level minor takes a minor", "{\"level\": \"minor\"}", REPO + ":1.2.0", "1.9.0", "ImageUpdated"),
                Arguments.of("level minor refuses a major", "{\"level\": \"minor\"}", REPO + ":1.2.0", "2.0.0", "OutsidePolicy"),
                Arguments.of("level major takes a major", "{\"level\": \"major\"}", REPO + ":1.2.0", "v3.0.0", "ImageUpdated"),
                Arguments.of("a pre-release is not taken from a release", "{\"level\": \"major\"}", REPO + ":1.2.0", "1.3.0-rc.1", "OutsidePolicy"),
                Arguments.of("level all takes a pre-release", "{\"level\": \"all\"}", REPO + ":1.2.0", "1.3.0-rc.1", "ImageUpdated"),
                Arguments.of("a pre-release follows a pre-release", semver, REPO + ":1.3.0-rc.1", "1.3.0-rc.2", "ImageUpdated"),
                Arguments.of("the release follows its pre-release", semver, REPO + ":1.3.0-rc.2", "1.3.0", "ImageUpdated"),
                Arguments.of("an older tag changes nothing", "{\"level\": \"all\"}", REPO + ":1.2.0", "1.1.9", "OlderVersion"),
                Arguments.of("an older patch under a range", semver, REPO + ":1.4.0@" + D1, "1.3.5", "OlderVersion"),
                Arguments.of("the same version moved to another digest", semver, REPO + ":1.2.0@" + D1, "1.2.0", "SameVersion"),
                Arguments.of("a running tag that is no version", semver, REPO + ":latest", "1.3.0", "RunningVersionUnknown"),
                Arguments.of("a running image of another repository", semver, "other.local/team/api:1.2.0", "1.3.0", "RunningVersionUnknown"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("decisions")
    void decides(String name, String policy, String running, String tag, String reason) {
        RolloutPlan plan = plan(policy, "{}", running, tag, D2);
        assertEquals(reason, plan.reason(), plan.message());
    }

    @Test
    void patchesOnlyTheFollowingContainerWithTagAndDigestAndRecordsIt() {
        RolloutPlan plan = plan("{\"semver\": \"^1.2\"}", "{}", REPO + ":1.2.0", "1.3.0", D2);

        RolloutPlan.PatchImages patch = assertInstanceOf(RolloutPlan.PatchImages.class, plan);
        assertEquals(json("""
                {"metadata": {"resourceVersion": "41"}, "spec": {"template": {"spec": {
                  "containers": [{"name": "api", "image": "%s:1.3.0@%s"}]}}}}""".formatted(REPO, D2)),
                ImagePatchBody.of(patch.patch()));
        assertEquals("set container/api=" + REPO + ":1.3.0@" + D2 + " in Deployment shop-api (push of " + REPO
                + ":1.3.0@" + D2 + ", update policy semver ^1.2)", plan.message());
        assertEquals(json("""
                {"images": [{"name": "container/api", "image": "%s:1.3.0@%s", "appliedAt": "2026-11-22T10:00:00Z"}],
                 "deployment": "shop-api",
                 "conditions": [{"type": "Progressing", "status": "True", "reason": "ImageUpdated", "message": "%s",
                   "observedGeneration": 2, "lastTransitionTime": "2026-11-22T10:00:00Z"}]}""".formatted(REPO, D2,
                plan.message())), json(written(plan).toString()));
    }

    @Test
    void withoutADigestTheTagIsWritten() {
        RolloutPlan plan = plan("{\"level\": \"minor\"}", "{}", REPO + ":1.2.0", "1.3.0", null);

        assertEquals(REPO + ":1.3.0", written(plan).at("/images/0/image").asText());
    }

    @Test
    void theSamePushTwiceWritesNothing() {
        RolloutPlan first = plan("{\"semver\": \"^1.2\"}", "{}", REPO + ":1.2.0", "1.3.0", D2);
        String running = REPO + ":1.3.0@" + D2;

        RolloutPlan again = plan("{\"semver\": \"^1.2\"}", written(first).toString(), running, "1.3.0", D2);

        assertInstanceOf(RolloutPlan.NoChange.class, again);
        assertEquals("UpToDate", again.reason());
        assertEquals("pushed 1.3.0@" + D2 + " is not rolled out to container/api, which runs " + running
                + ": it is the version already running", again.message());
        assertNull(again.status());
    }

    @Test
    void aRedeliveryAfterAFailedStatusWriteRecordsTheImage() {
        RolloutPlan plan = plan("{\"semver\": \"^1.2\"}", "{}", REPO + ":1.3.0@" + D2, "1.3.0", D2);

        assertEquals("UpToDate", plan.reason());
        assertEquals(REPO + ":1.3.0@" + D2, written(plan).at("/images/0/image").asText());
    }

    @Test
    void withoutAPolicyNothingChanges() {
        RolloutPlan plan = plan(null, "{}", REPO + ":1.2.0", "1.3.0", D2);

        assertEquals("NoUpdatePolicy", plan.reason());
        assertEquals("ImageDeploy shop has no spec.updatePolicy; pushes of " + REPO + " are not rolled out (set semver"
                + " or level to follow them)", plan.message());
        assertNull(plan.status());
    }

    @Test
    void aTagThatIsNoVersionChangesNothing() {
        RolloutPlan plan = plan("{\"level\": \"all\"}", "{}", REPO + ":1.2.0", "latest", D2);

        assertEquals("NotAVersion", plan.reason());
        assertEquals("pushed tag 'latest' of " + REPO + " is not a semantic version; ImageDeploy shop follows level all",
                plan.message());
    }

    @Test
    void aMissingDeploymentIsLeftToTheImageDeployRollout() {
        RolloutPlan plan = plan("{\"level\": \"all\"}", "{}", null, "1.3.0", D2);

        assertEquals("DeploymentNotFound", plan.reason());
        assertNull(plan.status());
    }

    @Test
    void anInvalidPolicyIsRejectedAndSaidInStatus() {
        RolloutPlan plan = plan("{\"level\": \"sometimes\"}", "{}", REPO + ":1.2.0", "1.3.0", D2);

        assertInstanceOf(RolloutPlan.Rejected.class, plan);
        assertEquals("ImageDeploy shop has an invalid update policy: spec.updatePolicy.level 'sometimes' is not one of"
                + " patch, minor, major, all", plan.message());
        assertEquals("InvalidUpdatePolicy", written(plan).at("/conditions/0/reason").asText());
    }

    @Test
    void theInitContainerNotInTheDeploymentIsSaidToBeMissing() {
        JsonNode idp = imageDeploy("{\"level\": \"all\"}", "{}");
        var followers = PushRolloutPlanner.followers(ImageDeployView.fromJson(idp),
                new ImageReference("registry.local:5000", "team/api", "1.3.0", null));

        assertEquals(2, followers.size());
        assertEquals("initContainer/schema", followers.get(0).key());
    }

    @ParameterizedTest(name = "{0} contains {1}: {2}")
    @CsvSource({
            "^1.2, 1.2.0, true", "^1.2, 1.99.0, true", "^1.2, 2.0.0-rc.1, false", "^1.2, 1.1.9, false",
            "^0.2.3, 0.2.9, true", "^0.2.3, 0.3.0, false", "^0.0.3, 0.0.4, false",
            "~1.2.3, 1.2.9, true", "~1.2.3, 1.3.0, false", "~1, 1.9.0, true",
            "1.x, 1.4.0, true", "1.2.*, 1.3.0, false", "*, 9.9.9, true", "1.2.3, 1.2.3, true", "=1.2.3, 1.2.4, false",
            "'>=1.2.0 <2.0.0', 1.5.0, true", "'>= 1.2 < 2', 2.0.0, false", "'>1.2', 1.2.9, false", "'<=1.2', 1.2.9, true",
            "'<1.2 || >=3', 1.1.0, true", "'<1.2 || >=3', 2.0.0, false", "'<1.2 || >=3', 3.1.0, true"
    })
    void ranges(String range, String version, boolean contained) {
        assertEquals(contained, SemVerRange.parse(range).contains(SemVer.parse(version)));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', quoteCharacter = '"', value = { "\"\" | the semver range is empty",
            "^1.2 banana | 'banana' in semver range '^1.2 banana' is not a comparator such as ^1.2, ~1.2.3, >=1.2.0, <2.0.0 or 1.x",
            "<* | '<*' in semver range '<*' compares with '*'" })
    void invalidRanges(String range, String message) {
        assertEquals(message, assertThrows(IllegalArgumentException.class, () -> SemVerRange.parse(range)).getMessage());
    }
}
