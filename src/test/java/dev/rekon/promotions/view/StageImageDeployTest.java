package dev.rekon.promotions.view;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Which change of a stage's ImageDeploy newly settles a build: the changes a stage watch tells a promotion of. */
class StageImageDeployTest {

    static final String B1 = "registry.local/r/hello@sha256:" + "1".repeat(64);
    static final String B2 = "registry.local/r/hello@sha256:" + "2".repeat(64);

    static StageImageDeploy idp(String rv, String image, String ready, String rolledOut, String reason) {
        return new StageImageDeploy("demo", "hello", rv, image == null ? Map.of() : Map.of("hello", image),
                StageDeployTest.c("Ready", ready, "Applied"), StageDeployTest.c("RolledOut", rolledOut, reason),
                "hello");
    }

    static Stream<Arguments> cases() {
        StageImageDeploy underWay = idp("1", B1, "True", "False", "Progressing");
        StageImageDeploy proven = idp("2", B1, "True", "True", "RolloutComplete");
        return Stream.of(
                Arguments.of("a rollout under way completes", underWay, proven, true),
                Arguments.of("the same proof again, another version (a later status write)", proven,
                        idp("3", B1, "True", "True", "RolloutComplete"), false),
                Arguments.of("a newer build proven over the older one", proven,
                        idp("3", B2, "True", "True", "RolloutComplete"), true),
                Arguments.of("a proof turned failure", proven, idp("3", B1, "False", "True", "RolloutComplete"), true),
                Arguments.of("a rollout that gives up", underWay, idp("3", B1, "True", "False",
                        StageDeploy.DEADLINE), true),
                Arguments.of("a rollout starting", proven, idp("3", B2, "True", "False", "Progressing"), false),
                Arguments.of("first seen settled", null, proven, true));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void newlySettled(String name, StageImageDeploy before, StageImageDeploy after, boolean newly) {
        assertEquals(newly, after.newlySettledSince(before));
    }
}
