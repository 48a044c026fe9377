package dev.rekon.web;

import java.io.IOException;

import jakarta.inject.Singleton;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;

import dev.rekon.core.Outcome;
import io.quarkus.jackson.ObjectMapperCustomizer;

/**
 * Remembers the outcome of the reply being written, and the reply itself, for {@link EventObservability}'s
 * metrics and decision log. Funqy
 * serializes the reply and ends the HTTP response on the same thread, after the function returned, and
 * exposes no hook in between; the serializer of {@link Outcome} is the one place that sees every reply.
 */
@Singleton
public class OutcomeCapture implements ObjectMapperCustomizer {

    private static final ThreadLocal<Captured> LAST = new ThreadLocal<>();

    /** An outcome, and the reply object it was serialized from (for its reason and objects), or null. */
    record Captured(Outcome outcome, Object reply) {
    }

    /** What was serialized last on this thread, cleared by reading it. */
    static Captured take() {
        Captured c = LAST.get();
        LAST.remove();
        return c;
    }

    @Override
    public void customize(ObjectMapper mapper) {
        mapper.registerModule(new SimpleModule("rekon-outcome-capture").addSerializer(Outcome.class,
                new StdSerializer<>(Outcome.class) {
                    @Override
                    public void serialize(Outcome value, JsonGenerator gen, SerializerProvider provider)
                            throws IOException {
                        LAST.set(new Captured(value, gen.currentValue()));
                        gen.writeString(value.wire());
                    }
                }));
    }
}
