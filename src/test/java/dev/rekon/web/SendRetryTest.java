package dev.rekon.web;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.net.ConnectException;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.Optional;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@link SendRetry}: which failed sends go out again, after how long, and that they stop. */
class SendRetryTest {

    static final SendRetry RETRY = new SendRetry(4, Duration.ofMillis(100), Duration.ofMillis(300));

    static Throwable failure(String kind) {
        return switch (kind) {
            case "refused" -> new ConnectException("Connection refused");
            case "timeout" -> new HttpTimeoutException("request timed out");
            case "io" -> new IOException("connection reset");
            case "wrapped" -> new java.util.concurrent.CompletionException(new ConnectException("refused"));
            case "bug" -> new IllegalArgumentException("not an event");
            default -> new CloudEventSink.NotAccepted(Integer.parseInt(kind), "http://127.0.0.1:1/");
        };
    }

    @ParameterizedTest(name = "{0} after {1} sends: again in {2} ms")
    @CsvSource({
            "503, 1, 100", "503, 2, 200", "503, 3, 300", "503, 4, -1",
            "502, 1, 100", "500, 1, 100", "429, 1, 100", "408, 1, 100",
            "400, 1, -1", "401, 1, -1", "403, 1, -1", "404, 1, -1", "413, 1, -1",
            "refused, 1, 100", "timeout, 2, 200", "io, 1, 100", "wrapped, 3, 300", "refused, 4, -1",
            "bug, 1, -1" })
    void aTransientFailureIsSentAgainWithBackoffAndAnyOtherNever(String kind, int sends, long againMillis) {
        Optional<Duration> again = RETRY.again(sends, failure(kind));
        assertEquals(againMillis < 0 ? Optional.empty() : Optional.of(Duration.ofMillis(againMillis)), again);
    }
}
