package dev.rekon.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import dev.rekon.core.ForbiddenException;
import dev.rekon.core.TransientFailureException;
import dev.rekon.testing.Failures;

/** The one optimistic-concurrency loop: which failures it retries, how often, and that retries read fresh. */
class ConflictRetryTest {

    @Test
    void aConflictIsRetriedFromFreshReads() {
        List<Boolean> fresh = new ArrayList<>();
        String result = ConflictRetry.run(f -> {
            fresh.add(f);
            if (fresh.size() < 3) {
                throw Failures.conflict("write");
            }
            return "written";
        });
        assertEquals("written", result);
        assertEquals(List.of(false, true, true), fresh);
    }

    @Test
    void conflictsBeyondTheBudgetGoUpAsTransient() {
        int[] attempts = {0};
        assertThrows(TransientFailureException.class, () -> ConflictRetry.run(f -> {
            attempts[0]++;
            throw Failures.conflict("write");
        }));
        assertEquals(ConflictRetry.ATTEMPTS, attempts[0]);
    }

    @Test
    void otherTransientFailuresAndRefusalsGoUpAtOnce() {
        int[] attempts = {0};
        RuntimeException unavailable = Failures.unavailable("read");
        assertSame(unavailable, assertThrows(TransientFailureException.class, () -> ConflictRetry.run(f -> {
            attempts[0]++;
            throw unavailable;
        })));
        assertThrows(ForbiddenException.class, () -> ConflictRetry.run(f -> {
            attempts[0]++;
            throw Failures.refused("write", 403);
        }));
        assertEquals(2, attempts[0]);
    }

    @Test
    void oneConflictTestForEveryArea() {
        assertEquals(true, ConflictRetry.isConflict(Failures.conflict("patch")));
        assertEquals(false, ConflictRetry.isConflict(Failures.unavailable("patch")));
    }
}
