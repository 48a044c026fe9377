package dev.rekon.modules.lifecycle.inventory;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import dev.rekon.core.ObjectRef;
import dev.rekon.manifests.Identity;

/**
 * What a module of a Kyma has in the cluster: every object Rekon applied for it (or is about to: entries are
 * recorded before the objects are created, so a process killed mid-install never leaves an object that a later
 * uninstall would miss), the version it runs, and the resourceVersion the inventory's own write is guarded by.
 *
 * @param version the version fully applied, or null while the first install has not finished
 */
public record Inventory(String module, String version, String channel, String template, List<Entry> objects,
        String resourceVersion) {

    /** One object: {@code created} when the module created it (a Namespace that existed before is not deleted). */
    public record Entry(ObjectRef ref, boolean created, boolean defaultCr) {
    }

    public Inventory {
        objects = List.copyOf(objects);
    }

    public static Inventory empty(String module) {
        return new Inventory(module, null, null, null, List.of(), null);
    }

    public Optional<Entry> entry(ObjectRef ref) {
        return objects.stream().filter(e -> Identity.same(e.ref(), ref)).findFirst();
    }

    /** This inventory with {@code more} recorded too (the write-ahead of an apply), the version unchanged. */
    public Inventory with(List<Entry> more) {
        Map<String, Entry> all = new LinkedHashMap<>();
        objects.forEach(e -> all.put(Identity.key(e.ref()), e));
        more.forEach(e -> all.putIfAbsent(Identity.key(e.ref()), e));
        return new Inventory(module, version, channel, template, new ArrayList<>(all.values()), resourceVersion);
    }

    public Inventory withResourceVersion(String version) {
        return new Inventory(module, this.version, channel, template, objects, version);
    }

    /** Whether the two record the same objects and version (the resourceVersion aside): no write needed. */
    public boolean sameAs(Inventory other) {
        return other != null && java.util.Objects.equals(version, other.version)
                && java.util.Objects.equals(channel, other.channel) && java.util.Objects.equals(template, other.template)
                && objects.equals(other.objects);
    }
}
