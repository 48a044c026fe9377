package dev.rekon.status;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;

import org.junit.jupiter.api.Test;

import dev.rekon.core.ObjectRef;
import dev.rekon.core.Reply;
import dev.rekon.web.ReplyFacts;
import io.vertx.core.MultiMap;

class DecisionLogTest {

    static final ObjectRef IDP = new ObjectRef("rekon.dev/v1alpha1", "ImageDeploy", "demo", "hello");

    @Test
    void keepsTheNewest200NewestFirst() {
        DecisionLog log = new DecisionLog(Clock.fixed(Instant.parse("2026-11-23T12:00:00Z"), ZoneOffset.UTC));
        for (int i = 0; i < 250; i++) {
            log.record("dev.rekon.image.built", "applied", "R" + i, null, List.of(IDP));
        }
        List<StatusReport.Decision> recent = log.recent();
        assertEquals(DecisionLog.CAPACITY, recent.size());
        assertEquals("R249", recent.get(0).reason());
        assertEquals("R50", recent.get(199).reason());
    }

    @Test
    void readsTheReasonAndObjectsOfAnyReplyRecord() {
        ReplyFacts facts = ReplyFacts.of(Reply.applied("ImageUpdated", "set", List.of(IDP)), MultiMap.caseInsensitiveMultiMap());
        assertEquals("ImageUpdated", facts.reason());
        assertEquals("set", facts.message());
        assertEquals(List.of(IDP), facts.objects());
    }

    @Test
    void withoutAReplyTheEventNamesTheObject() {
        MultiMap headers = MultiMap.caseInsensitiveMultiMap().add("ce-kind", "Image").add("ce-namespace", "demo")
                .add("ce-name", "hello").add("ce-apiversion", "kpack.io/v1alpha2");
        ReplyFacts facts = ReplyFacts.of(null, headers);
        assertNull(facts.reason());
        assertEquals(List.of(new ObjectRef("kpack.io/v1alpha2", "Image", "demo", "hello")), facts.objects());
        assertEquals(List.of(), ReplyFacts.of("not a record", MultiMap.caseInsensitiveMultiMap()).objects());
    }
}
