package dev.rekon.modules.publish;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;

import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;

import org.eclipse.microprofile.config.inject.ConfigProperty;

import dev.rekon.modules.publish.plan.PromotionRule;
import dev.rekon.modules.release.MaintenanceWindow;

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

    /** Soak rules, {@code <target>=<source>+<soak>}, comma-separated, e.g. {@code regular=fast+24h}. */
    @ConfigProperty(name = "rekon.modules.publish.promotions")
    Optional<String> promotions;

    /** The UTC window channels move in (by rule or by hand), {@code [Mon,Sat ]HH:mm-HH:mm}; empty: always. */
    @ConfigProperty(name = "rekon.modules.publish.maintenance-window")
    Optional<String> maintenanceWindow;

    private List<PromotionRule> rules = List.of();
    private Optional<MaintenanceWindow> window = Optional.empty();

    /** Parsed once, so that a bad rule or window fails with its message rather than on the first event. */
    @PostConstruct
    void load() {
        rules = PromotionRule.parseAll(promotions == null ? "" : promotions.orElse(""));
        window = maintenanceWindow == null ? Optional.empty()
                : maintenanceWindow.filter(w -> !w.isBlank()).map(MaintenanceWindow::parse);
    }

    public List<PromotionRule> promotions() {
        return rules;
    }

    public Optional<MaintenanceWindow> maintenanceWindow() {
        return window;
    }

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
