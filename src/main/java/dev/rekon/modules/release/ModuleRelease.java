package dev.rekon.modules.release;

import java.util.Map;

import dev.rekon.core.SemVer;

/**
 * One released version of a module as an event offers it: the images per container name, the channel it
 * is released on, whether the publisher declared it an intended downgrade, and how its signature checked.
 *
 * @param channel the channel the release belongs to
 * @param switchChannel true when Deployments on other channels should move to {@code channel} (the manual
 *        event); false when only Deployments already following {@code channel} take the release
 * @param origin what carried the release, for messages (e.g. "ModuleTemplate kcp-system/kpack-0.4.3")
 */
public record ModuleRelease(String module, SemVer version, String channel, boolean switchChannel,
        Map<String, String> images, boolean intendedDowngrade, SignatureCheck signature, String origin) {

    public ModuleRelease {
        images = Map.copyOf(images);
    }
}
