package dev.rekon.promotions.watch;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import com.fasterxml.jackson.databind.ObjectMapper;

import dev.rekon.cluster.watch.SharedWatches;
import dev.rekon.core.NamespacePolicy;
import dev.rekon.promotions.view.PromotedImageView;
import dev.rekon.promotions.view.PromotionStage;
import dev.rekon.promotions.view.StageDeploy;
import dev.rekon.promotions.view.StageImageDeploy;
import dev.rekon.promotions.view.StageView;
import io.fabric8.kubernetes.client.KubernetesClient;

/**
 * Decides what a promotion may take from a remote stage's cluster without a call to it. One set of watches per
 * kubeconfig client: the PromotedImages and ImageDeploys of each stage namespace read through it, each namespace's
 * watch started on its first read, all stopped with the client (a rotated kubeconfig gets new ones). A stage is
 * answered only when its watches have synced and hold everything its plan reads; otherwise, and for what only a
 * read shows (a verify Job, a Deployment behind an ImageDeploy without {@code RolledOut}), the stage is read live.
 */
public final class StageWatches {

    private final StageFacets.PromotedImages promoted = new StageFacets.PromotedImages();
    private final StageFacets.ImageDeploys deploys = new StageFacets.ImageDeploys();
    private final SharedWatches watches;

    public StageWatches(KubernetesClient client, ObjectMapper mapper) {
        // An allow-list rather than '*': one watch per stage namespace, as the stage's role is bound per namespace.
        this.watches = SharedWatches.standalone(client, mapper, NamespacePolicy.parse(""),
                List.of(promoted, deploys));
    }

    /** The stage as its watches hold it, or empty when they cannot tell all of it (then it is read live). */
    public Optional<StageView> view(PromotionStage stage, String namespace, String followed) {
        if (stage.verifyJob() != null) {
            return Optional.empty();
        }
        PromotedImageView image = null;
        if (stage.promotedImage() != null) {
            Optional<List<PromotedImageView>> held = watches.of(promoted).latest(namespace,
                    Set.of(stage.promotedImage()));
            if (held.isEmpty()) {
                return Optional.empty();
            }
            image = held.get().stream().filter(p -> stage.promotedImage().equals(p.name())).findFirst().orElse(null);
        }
        Map<String, StageDeploy> held = new LinkedHashMap<>();
        for (String name : stage.imageDeploys()) {
            Optional<StageImageDeploy> deploy = watches.of(deploys).latest(namespace, Set.of(name))
                    .flatMap(found -> found.stream().filter(d -> name.equals(d.name())).findFirst());
            if (deploy.isEmpty() || deploy.get().rolledOut() == null) {
                return Optional.empty();
            }
            held.put(name, deploy.get().following(followed));
        }
        return Optional.of(new StageView(stage.name(), null, null, image, held, null));
    }

    /** Records this process's write of a PromotedImage, as the stage answered it, until the watch shows it. */
    public void wrote(PromotedImageView written) {
        watches.of(promoted).wrote(written.namespace(), written.name(), written.resourceVersion(), written);
    }

    public void stop() {
        watches.stop();
    }
}
