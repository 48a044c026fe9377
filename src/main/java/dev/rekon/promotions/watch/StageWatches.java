package dev.rekon.promotions.watch;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;

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
 * A change of a stage's ImageDeploy that settles a build is told as it arrives, so that the promotion moves on from
 * the watch, without waiting for the stage's CDEvent.
 */
public final class StageWatches {

    private final StageFacets.PromotedImages promoted = new StageFacets.PromotedImages();
    private final StageFacets.ImageDeploys deploys;
    private final SharedWatches watches;

    /**
     * @param settled told, on the watch's thread, of each ImageDeploy of a stage namespace whose change settles a
     *     build (proves or fails it): it only hands the work on
     */
    public StageWatches(KubernetesClient client, ObjectMapper mapper, Consumer<StageImageDeploy> settled) {
        this.deploys = new StageFacets.ImageDeploys(settled);
        // An allow-list rather than '*': one watch per stage namespace, as the stage's role is bound per namespace.
        this.watches = SharedWatches.standalone(client, mapper, NamespacePolicy.parse(""),
                List.of(promoted, deploys));
    }

    /**
     * The stage as its watches hold it, or empty when they cannot tell all of it (then it is read live). Its
     * PromotedImage's and ImageDeploys' watches are all asked, so that they start together on its first read.
     */
    public Optional<StageView> view(PromotionStage stage, String namespace, String followed) {
        if (stage.verifyJob() != null) {
            return Optional.empty();
        }
        Optional<List<PromotedImageView>> images = stage.promotedImage() == null ? Optional.of(List.of())
                : watches.of(promoted).latest(namespace, Set.of(stage.promotedImage()));
        Map<String, StageDeploy> held = new LinkedHashMap<>();
        for (String name : stage.imageDeploys()) {
            watches.of(deploys).latest(namespace, Set.of(name)).flatMap(found -> found.stream()
                    .filter(d -> name.equals(d.name())).findFirst()).filter(d -> d.rolledOut() != null)
                    .ifPresent(d -> held.put(name, d.following(followed)));
        }
        if (images.isEmpty() || held.size() < stage.imageDeploys().size()) {
            return Optional.empty();
        }
        PromotedImageView image = images.get().stream().filter(p -> p.name().equals(stage.promotedImage()))
                .findFirst().orElse(null);
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
