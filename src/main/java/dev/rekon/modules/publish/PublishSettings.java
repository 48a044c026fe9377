package dev.rekon.modules.publish;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;

import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Module publication's settings. Publication is off while {@code rekon.modules.publish.repositories} is empty.
 */
@ApplicationScoped
public class PublishSettings {

    /** Repository prefixes ({@code host[:port]/path}) whose component versions are published. */
    @ConfigProperty(name = "rekon.modules.publish.repositories")
    Optional<List<String>> repositories;

    /** Where ModuleTemplates and ModuleReleaseMetas are written. */
    @ConfigProperty(name = "rekon.modules.publish.namespace", defaultValue = "kcp-system")
    String namespace;

    /** Channels that move to each new version at once, comma-separated; {@code -} for none. */
    @ConfigProperty(name = "rekon.modules.publish.auto-channels", defaultValue = "fast")
    String autoChannels;

    /** The largest blob of a component version that is read. */
    @ConfigProperty(name = "rekon.modules.publish.max-blob-bytes", defaultValue = "67108864")
    long maxBlobBytes;

    public List<String> repositories() {
        return repositories.orElse(List.of()).stream().map(PublishSettings::normalise).filter(s -> !s.isEmpty())
                .toList();
    }

    public boolean enabled() {
        return !repositories().isEmpty();
    }

    public String namespace() {
        return namespace;
    }

    public List<String> autoChannels() {
        return Arrays.stream(autoChannels.split(",")).map(String::trim).filter(s -> !s.isEmpty() && !s.equals("-"))
                .toList();
    }

    public long maxBlobBytes() {
        return maxBlobBytes;
    }

    /** A repository without scheme and surrounding slashes. */
    static String normalise(String repository) {
        return repository == null ? "" : repository.trim().replaceFirst("^[a-zA-Z]+://", "").replaceAll("^/+|/+$", "");
    }
}
