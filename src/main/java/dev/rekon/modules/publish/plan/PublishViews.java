package dev.rekon.modules.publish.plan;

import java.util.List;

import dev.rekon.modules.publish.source.ComponentRead;

/**
 * Everything one publication is planned from.
 *
 * @param read     the component version as read (null when the key was refused before reading)
 * @param template the ModuleTemplate {@code <module>-<version>} as it is, or null
 * @param meta     the module's ModuleReleaseMeta as it is, or null
 */
public record PublishViews(PublishKey key, Policy policy, ComponentRead read, PublishedTemplate template,
        PublishedMeta meta) {

    /** @param autoChannels channels that move to each new version at once */
    public record Policy(List<String> autoChannels, boolean requireSignature) {

        public Policy {
            autoChannels = List.copyOf(autoChannels);
        }
    }
}
