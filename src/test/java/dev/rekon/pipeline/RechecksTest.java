package dev.rekon.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import dev.rekon.core.Reply;

/** When a plan that asked to be planned again is: polls that find nothing back off, deadlines never do. */
class RechecksTest {

    record Asks(Duration after, boolean polls, boolean writes) implements Reconciler.Plan {
        @Override
        public Reply reply() {
            return Reply.unchanged("UpToDate", "", java.util.List.of());
        }

        @Override
        public Optional<Duration> rescheduleAfter() {
            return Optional.ofNullable(after);
        }

        @Override
        public boolean rescheduleBacksOff() {
            return polls;
        }

        @Override
        public boolean writes() {
            return writes;
        }
    }

    private static final Duration TEN = Duration.ofSeconds(10);
    private final Rechecks rechecks = new Rechecks();

    @Test
    void aPollThatFindsNothingWaitsTwiceAsLongEachTimeUpToTheResyncInterval() {
        Asks quiet = new Asks(TEN, true, false);
        assertEquals(TEN, rechecks.next("k", quiet, false).orElseThrow(), "an event's plan: the delay asked");
        long[] seconds = {20, 40, 80, 160, 300, 300};
        for (long s : seconds) {
            assertEquals(Duration.ofSeconds(s), rechecks.next("k", quiet, true).orElseThrow());
        }
        assertEquals(TEN, rechecks.next("other", quiet, true).orElseThrow().dividedBy(2), "per key");
    }

    @Test
    void aWriteAnEventOrAResyncStartsAgainFromTheDelayAsked() {
        Asks quiet = new Asks(TEN, true, false);
        rechecks.next("k", quiet, true);
        rechecks.next("k", quiet, true);
        assertEquals(TEN, rechecks.next("k", new Asks(TEN, true, true), true).orElseThrow(), "it wrote");
        assertEquals(Duration.ofSeconds(20), rechecks.next("k", quiet, true).orElseThrow());
        assertEquals(TEN, rechecks.next("k", quiet, false).orElseThrow(), "not a recheck");
        assertEquals(Duration.ofSeconds(20), rechecks.next("k", quiet, true).orElseThrow());
        assertEquals(Optional.empty(), rechecks.next("k", new Asks(null, true, false), true), "asks nothing");
        assertEquals(Duration.ofSeconds(20), rechecks.next("k", quiet, true).orElseThrow(), "counted from zero");
    }

    @Test
    void aDeadlineIsKeptHoweverOftenItIsAsked() {
        Asks soak = new Asks(Duration.ofSeconds(31), false, false);
        for (int i = 0; i < 5; i++) {
            assertEquals(Duration.ofSeconds(31), rechecks.next("k", soak, true).orElseThrow());
        }
    }
}
