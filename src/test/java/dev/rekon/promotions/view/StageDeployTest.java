package dev.rekon.promotions.view;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.stream.Stream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import dev.rekon.cluster.Conditions;

/** Which conditions of an ImageDeploy settle the build it runs (a proof, a failure), and which say it is under way. */
class StageDeployTest {

    static Conditions.Written c(String type, String status, String reason) {
        return status == null ? null : new Conditions.Written(type, status, reason, null, 1L, null, null);
    }

    static Stream<Arguments> cases() {
        return Stream.of(
                Arguments.of("Ready and rolled out: proven", "True", "True", "RolloutComplete", true),
                Arguments.of("a rollout under way", "True", "False", "Progressing", false),
                Arguments.of("a rollout that gave up: failed", "True", "False", StageDeploy.DEADLINE, true),
                Arguments.of("not Ready: failed", "False", "False", "Progressing", true),
                Arguments.of("no RolledOut yet", "True", null, null, false),
                Arguments.of("no conditions", null, null, null, false));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void settles(String name, String ready, String rolledOut, String reason, boolean settles) {
        assertEquals(settles, StageDeploy.settles(c("Ready", ready, "Written"), c("RolledOut", rolledOut, reason)));
    }
}
