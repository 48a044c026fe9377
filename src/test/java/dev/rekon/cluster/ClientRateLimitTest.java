package dev.rekon.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The client's token bucket: a burst at once, then requests spaced at the rate, those held back counted. */
class ClientRateLimitTest {

    @Test
    void aBurstGoesAtOnceThenRequestsWaitTheirTurn() {
        ClientRateLimit limit = new ClientRateLimit(100, 5);
        long now = System.nanoTime();
        for (int i = 0; i < 5; i++) {
            assertEquals(0, limit.take(now), "request " + i + " of the burst");
        }
        assertEquals(10_000_000, limit.take(now), "10 ms at 100 a second");
        assertEquals(20_000_000, limit.take(now), "the next one a slot later");
        assertEquals(0, limit.take(now + 1_000_000_000), "a second later the bucket is full again");
    }

    @Test
    void theRequestsHeldBackAreCountedInTheMetrics() {
        var registry = new io.micrometer.core.instrument.simple.SimpleMeterRegistry();
        ApiCallMetrics metrics = new ApiCallMetrics(registry, 1, java.util.Optional.of(100.0),
                java.util.Optional.of(1));
        long now = System.nanoTime();
        metrics.rateLimit().take(now);
        assertEquals(0.0, registry.get("rekon.api.rate.limited").functionCounter().count(), "within the burst");
        metrics.rateLimit().take(now);
        metrics.rateLimit().take(now);
        assertEquals(2.0, registry.get("rekon.api.rate.limited").functionCounter().count());
        assertEquals(0.03, registry.get("rekon.api.rate.limited.seconds").functionCounter().count(), 0.001,
                "10 ms, then 20 ms at 100 a second");
    }

    @Test
    void theDefaultsFollowTheQueuesParallelism() {
        ApiCallMetrics metrics = new ApiCallMetrics(new io.micrometer.core.instrument.simple.SimpleMeterRegistry(), 4,
                java.util.Optional.empty(), java.util.Optional.empty());
        assertEquals(400, metrics.rateLimit().qps());
        assertEquals(800, metrics.rateLimit().burst());
    }
}
