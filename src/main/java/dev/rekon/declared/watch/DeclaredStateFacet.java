package dev.rekon.declared.watch;

import java.util.Collection;
import java.util.List;

import jakarta.inject.Singleton;

import com.fasterxml.jackson.databind.JsonNode;

import dev.rekon.cluster.watch.KindFacet;
import dev.rekon.cluster.watch.WatchedKindId;
import dev.rekon.declared.intent.DeclaredStateView;
import dev.rekon.webhooks.git.RepoUrls;

/**
 * DeclaredStates as the push router, the loop and the status page find them: by the repository and branch they
 * follow ({@link #followKey}), by name ({@link #nameKey}), or all of a namespace.
 */
@Singleton
public class DeclaredStateFacet extends KindFacet<DeclaredStateView> {

    public DeclaredStateFacet() {
        super(WatchedKindId.namespaced("rekon.dev", "v1alpha1", "declaredstates", "DeclaredState"));
    }

    @Override
    public DeclaredStateView view(JsonNode object) {
        return DeclaredStateView.of(object);
    }

    @Override
    public Collection<String> indexKeys(DeclaredStateView view) {
        String key = followKey(view.url(), view.branch());
        return key == null ? List.of(nameKey(view.name())) : List.of(key, nameKey(view.name()));
    }

    /** The key a DeclaredState is found by its name (within its namespace); no follow key has this form. */
    public static String nameKey(String name) {
        return "name:" + name;
    }

    /** {@code <normalised repository>@<branch>}, or null when the URL names no repository. */
    public static String followKey(String url, String branch) {
        String repo = RepoUrls.normalise(url);
        return repo == null ? null : repo + "@" + branch;
    }
}
