package dev.rekon.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import dev.rekon.core.ObjectRef;
import dev.rekon.core.Outcome;
import dev.rekon.core.Reply;

/** The one combination rule, over every mix of up to three applied / unchanged / rejected parts. */
class RepliesTest {

    /** Every sequence of one to three outcomes: 3 + 9 + 27 mixes. */
    static Stream<List<Outcome>> mixes() {
        List<List<Outcome>> all = new ArrayList<>();
        for (int size = 1; size <= 3; size++) {
            collect(new ArrayList<>(), size, all);
        }
        return all.stream();
    }

    private static void collect(List<Outcome> prefix, int size, List<List<Outcome>> out) {
        if (prefix.size() == size) {
            out.add(List.copyOf(prefix));
            return;
        }
        for (Outcome o : Outcome.values()) {
            prefix.add(o);
            collect(prefix, size, out);
            prefix.remove(prefix.size() - 1);
        }
    }

    /** The rule as a table: applied if any part was, else rejected if any was, else unchanged. */
    static Outcome expected(List<Outcome> mix) {
        return mix.contains(Outcome.APPLIED) ? Outcome.APPLIED
                : mix.contains(Outcome.REJECTED) ? Outcome.REJECTED : Outcome.UNCHANGED;
    }

    static Reply part(int i, Outcome o) {
        return new Reply(o, o.name() + i, "part " + i, List.of(new ObjectRef("v1", "Thing", "ns", "t" + i)))
                .with("part", String.valueOf(i));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("mixes")
    void outcomeReasonMessageObjects(List<Outcome> mix) {
        List<Reply> parts = new ArrayList<>();
        for (int i = 0; i < mix.size(); i++) {
            parts.add(part(i, mix.get(i)));
        }
        Reply combined = Replies.combine(parts);
        Outcome outcome = expected(mix);
        int lead = mix.indexOf(outcome);
        assertEquals(outcome, combined.outcome());
        assertEquals(outcome.name() + lead, combined.reason(), "the reason of the first part with that outcome");
        assertEquals(String.valueOf(lead), combined.details().get("part"), "that part's area facts");
        assertEquals(String.join("; ", parts.stream().map(Reply::message).toList()), combined.message());
        assertEquals(parts.stream().flatMap(r -> r.objects().stream()).toList(), combined.objects());
    }

    @Test
    void onePartIsItsOwnReplyAndNonePartsIsTheNothingReply() {
        Reply one = part(0, Outcome.REJECTED);
        assertSame(one, Replies.combine(List.of(one)));
        Reply nothing = Reply.unchanged("NothingAffected", "no subscriber", List.of());
        assertSame(nothing, Replies.combine(List.of(), nothing));
    }

    @Test
    void anObjectNamedByTwoPartsIsListedOnce() {
        ObjectRef shared = new ObjectRef("apps/v1", "Deployment", "ns", "web");
        Reply combined = Replies.combine(List.of(Reply.applied("A", "a", List.of(shared)),
                Reply.unchanged("B", "b", List.of(shared))));
        assertEquals(List.of(shared), combined.objects());
    }
}
