package dev.rekon.webhooks;

import static dev.rekon.webhooks.Payloads.text;

import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;

import dev.rekon.core.InvalidEventException;

/**
 * Decides what one entry of a Harbor event's {@code resources} names. Harbor documents the registry as the host of
 * {@code resource_url}, the repository as {@code repository.repo_full_name} and the tag as the resource's {@code tag};
 * Rekon reads them so (as Argo CD Image Updater does), and falls back to what {@code resource_url} says (as Keel
 * reads it) only when the documented field is absent. A {@code resource_url} without a registry host is a Docker Hub
 * name. Every fallback, and a {@code resource_url} that disagrees with the documented field, is noted in
 * {@code readFrom}.
 */
final class HarborResources {

    private HarborResources() {
    }

    /** One push, without an event id; {@code fullName} is the event's repository, null when it names none. */
    static ImagePushed read(JsonNode resource, String fullName, String what) {
        String url = text(resource, "resource_url");
        if (url == null || Payloads.hostAndRepository(url) == null && Payloads.namesHost(url)) {
            throw new InvalidEventException(what + ": every resource needs a 'resource_url' (host/project/repository:tag)");
        }
        List<String> readFrom = new ArrayList<>();
        String located = url;
        if (!Payloads.namesHost(url)) {
            located = "docker.io/" + url.replaceFirst("^[a-z]+://", "");
            readFrom.add("registry docker.io: resource_url '" + url + "' names no registry host");
        }
        String[] hostAndRepo = Payloads.hostAndRepository(located);
        String repository = Payloads.repository(repository(fullName, hostAndRepo[1], readFrom),
                what + ": repository.repo_full_name");
        String tag = tag(text(resource, "tag"), Payloads.tagOf(url), what, readFrom);
        return new ImagePushed(Payloads.registry(hostAndRepo[0], what), repository, tag,
                Payloads.digest(text(resource, "digest"), what), null, readFrom.isEmpty() ? null : String.join("; ", readFrom));
    }

    private static String repository(String fullName, String fromUrl, List<String> readFrom) {
        if (fullName == null) {
            readFrom.add("repository from resource_url (no repository.repo_full_name, nor namespace and name)");
            return fromUrl;
        }
        if (!fullName.equals(fromUrl)) {
            readFrom.add("repository from repository.repo_full_name; resource_url says '" + fromUrl + "'");
        }
        return fullName;
    }

    private static String tag(String field, String fromUrl, String what, List<String> readFrom) {
        String tag = Payloads.tag(field, what);
        String urlTag = Payloads.tagOrNull(fromUrl);
        if (tag == null && field == null && urlTag != null) {
            readFrom.add("tag from resource_url (the resource has no 'tag')");
            return urlTag;
        }
        if (tag != null && urlTag != null && !tag.equals(urlTag)) {
            readFrom.add("tag from the resource's 'tag'; resource_url says '" + urlTag + "'");
        }
        return tag;
    }
}
