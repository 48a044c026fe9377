package dev.rekon.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The client's token bucket: a burst at once, then requests spaced at the rate. */
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
    void theDefaultsFollowTheQueuesParallelism() {
        ApiCallMetrics metrics = new ApiCallMetrics(new io.micrometer.core.instrument.simple.SimpleMeterRegistry(), 4,
                java.util.Optional.empty(), java.util.Optional.empty());
        assertEquals(400, metrics.rateLimit().qps());
        assertEquals(800, metrics.rateLimit().burst());
    }
}
