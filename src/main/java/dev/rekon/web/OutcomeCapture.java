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
 * Remembers the outcome of the reply being written, for {@link EventObservability}'s metrics. Funqy
 * serializes the reply and ends the HTTP response on the same thread, after the function returned, and
 * exposes no hook in between; the serializer of {@link Outcome} is the one place that sees every reply.
 */
@Singleton
public class OutcomeCapture implements ObjectMapperCustomizer {

    private static final ThreadLocal<Outcome> LAST = new ThreadLocal<>();

    /** The outcome serialized last on this thread, cleared by reading it. */
    static Outcome take() {
        Outcome o = LAST.get();
        LAST.remove();
        return o;
    }

    @Override
    public void customize(ObjectMapper mapper) {
        mapper.registerModule(new SimpleModule("rekon-outcome-capture").addSerializer(Outcome.class,
                new StdSerializer<>(Outcome.class) {
                    @Override
                    public void serialize(Outcome value, JsonGenerator gen, SerializerProvider provider)
                            throws IOException {
                        LAST.set(value);
                        gen.writeString(value.wire());
                    }
                }));
    }
}
