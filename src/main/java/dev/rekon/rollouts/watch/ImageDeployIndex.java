package dev.rekon.rollouts.watch;

import java.util.List;
import java.util.Optional;
import java.util.Set;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.rekon.cluster.watch.FacetViews;
import dev.rekon.cluster.watch.SharedWatches;
import dev.rekon.rollouts.view.ImageDeployView;
import dev.rekon.rollouts.view.RolloutNames;

/**
 * The ImageDeploys of a namespace that reference a kpack Image, from the one watch of each group
 * ({@link ImageDeployFacet}), cluster-wide when {@code rekon.namespaces} is {@code *}, else per namespace (started
 * in the background on the first event there, read directly until it has synced), as views made once per
 * version, so that an Image event costs the same with 10 or 10,000 ImageDeploys and reads none of them from the apiserver. A view may lag the apiserver by the
 * watch's delay: this process's own status writes stand in until the watch delivers them ({@link FacetViews#wrote}), and the rollout
 * writes its status guarded by the view's resourceVersion, re-reading on a conflict. Without a watch (no RBAC
 * for watch, CRD missing, apiserver down) it answers empty and the caller lists.
 */
@ApplicationScoped
public class ImageDeployIndex {

    @Inject
    SharedWatches watches;

    @Inject
    ImageDeployFacet.Rekon rekonGroup;

    @Inject
    ImageDeployFacet.Kpush kpushGroup;

    /** The ImageDeploys that referenced the Image when last seen; empty when not indexed. */
    public Optional<List<ImageDeployView>> referencing(String group, String namespace, String imageName) {
        return following(group, RolloutNames.KPACK_IMAGE_KIND, namespace, imageName);
    }

    /** The ImageDeploys that followed the object of that kind (a kpack Image or a PromotedImage) when last seen. */
    public Optional<List<ImageDeployView>> following(String group, String kind, String namespace, String imageName) {
        return views(group).latestWithUnseen(namespace, Set.of(ImageDeployView.indexKey(kind, imageName)));
    }

    /**
     * The ImageDeploy as the watch (or this process's own status write, until the watch shows it) holds it; empty
     * when the watch does not show it or has not synced.
     */
    public Optional<ImageDeployView> seen(String group, String namespace, String name) {
        return views(group).latest(namespace, Set.of(ImageDeployView.nameKey(name)))
                .flatMap(found -> found.stream().filter(v -> name.equals(v.name())).findFirst());
    }

    /** The group's facet of the one ImageDeploy watch. */
    public FacetViews<ImageDeployView> views(String group) {
        return watches.of(RolloutNames.KPUSH_GROUP.equals(group) ? kpushGroup : rekonGroup);
    }

    /** Records a status write of this process (as the apiserver answered it), until the watch delivers it. */
    public void wrote(ImageDeployView answered) {
        if (answered != null) {
            views(answered.group()).wrote(answered.namespace(), answered.name(), answered.resourceVersion(), answered);
        }
    }
}
