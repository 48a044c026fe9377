package dev.rekon.rollouts;

import java.net.URI;
import java.util.Optional;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** Where a stage's Rekon sends CDEvents about completed rollouts, and how it names its cluster in them. */
@ConfigMapping(prefix = "rekon.cdevents")
public interface CdEventsConfig {

    /** The URL CDEvents are POSTed to (a Knative Broker, or a promoting Rekon); unset: none are sent. */
    Optional<URI> sink();

    /** The environment (this cluster) as the events name it: {@code subject.content.environment.id}. */
    @WithDefault("default")
    String environment();

    /** The events' {@code source} and {@code subject.source}. */
    @WithDefault("rekon/rollouts")
    String source();
}
