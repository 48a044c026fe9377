package dev.rekon.cluster;

import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.time.Duration;

import org.junit.jupiter.api.Test;

/** The gate holds background work only until the process has answered an event. */
class ColdStartGateTest {

    @Test
    void anAnsweredEventOpensTheGate() {
        ColdStartGate.eventAnswered();
        assertTimeoutPreemptively(Duration.ofSeconds(10), ColdStartGate::awaitOpen);
    }
}
