package dev.rekon.cluster.watch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

import org.junit.jupiter.api.Test;

/** Which texts the watches' trees make canonical, and what that costs per watch event. */
class WatchedTextTest {

    private final List<String> pooled = new ArrayList<>();
    private final UnaryOperator<String> pool = text -> {
        pooled.add(text);
        return text.intern();
    };

    @Test
    void aTextSeenBeforeIsAnsweredWithoutAskingTheJvmsTableAgain() {
        WatchedText texts = new WatchedText(WatchedText.SLOTS, pool);

        String first = texts.textNode(new String("shop")).textValue();
        for (int i = 0; i < 1_000; i++) {
            assertSame(first, texts.textNode(new String("shop")).textValue());
        }

        assertEquals(List.of("shop"), pooled);
    }

    @Test
    void everyShortTextIsTheOneStringTheJvmHolds() {
        WatchedText texts = new WatchedText(WatchedText.SLOTS, String::intern);

        assertSame("apps/v1", texts.textNode(new String("apps/v1")).textValue());
        assertSame("r/app@sha256:1", texts.textNode(new String("r/app@sha256:1")).textValue());
    }

    /** Two texts that share a slot still come out canonical: the slot only saves the look-up, it decides nothing. */
    @Test
    void textsThatShareASlotStayCanonical() {
        WatchedText texts = new WatchedText(1, pool);

        for (int i = 0; i < 3; i++) {
            assertSame("Deployment", texts.textNode(new String("Deployment")).textValue());
            assertSame("ImageDeploy", texts.textNode(new String("ImageDeploy")).textValue());
        }

        assertEquals(6, pooled.size());
    }

    @Test
    void aLongTextIsLeftAsRead() {
        WatchedText texts = new WatchedText(WatchedText.SLOTS, pool);
        String message = "x".repeat(WatchedText.LONGEST + 1);

        assertSame(message, texts.textNode(message).textValue());
        assertEquals(List.of(), pooled);
    }
}
