package dev.rekon.modules;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.rekon.core.Reply;
import dev.rekon.core.SemVer;
import dev.rekon.modules.plan.ModuleDeployment;
import dev.rekon.modules.plan.ModuleUpdatePlanner;
import dev.rekon.modules.release.ModuleRelease;
import dev.rekon.modules.release.SignatureCheck;
import dev.rekon.modules.watch.ModulePushIndex;
import dev.rekon.pipeline.ApiRefusals;
import dev.rekon.pipeline.Replies;
import dev.rekon.registry.ImageReference;
import dev.rekon.webhooks.ImagePushed;
import dev.rekon.webhooks.PushRouter;
import dev.rekon.webhooks.Subscription;

/**
 * A push of a version tag to a repository that an installed module runs is a release of that module: the
 * containers running that repository get {@code repository:tag@digest} and the module's version becomes the tag,
 * through the module policy ({@link ModuleUpdatePlanner}) on each channel those Deployments follow. The module
 * Deployments running a repository come from {@link ModulePushIndex}. A push
 * carries no signature, so with {@code rekon.modules.require-signature} on it is rejected as
 * {@code SignatureMissing}.
 */
@ApplicationScoped
public class ModulePushRouter implements PushRouter {

    @Inject
    ModuleService service;

    @Inject
    ModulePushIndex index;

    @Override
    public Subscription subscription(ImagePushed push) {
        List<ModulePushIndex.Running> running = index.running(push.repositoryReference());
        return new Subscription(running.stream().map(r -> "module " + r.deployment().module() + " (Deployment "
                + r.deployment().ref().namespace() + "/" + r.deployment().ref().name() + ")").toList(),
                SemVer.tryParse(push.tag()).isPresent(), running.stream().map(ModulePushIndex.Running::pullSecrets).toList());
    }

    @Override
    public Reply route(ImagePushed push) {
        Optional<SemVer> version = SemVer.tryParse(push.tag());
        if (version.isEmpty()) {
            return Reply.unchanged("NotAVersion", "push of " + push.reference()
                    + " has no semantic-version tag; module releases need one", List.of());
        }
        return ApiRefusals.asReply(List.of(), () -> Replies.combine(
                releases(push, version.get()).stream().map(r -> service.handle(new ModuleInput.Release(r))).toList(),
                Reply.unchanged("NoModule", "no installed module runs " + push.repositoryReference(), List.of())));
    }

    /** One release per module and channel whose Deployments run the pushed repository. */
    List<ModuleRelease> releases(ImagePushed push, SemVer version) {
        String image = push.repositoryReference() + ":" + push.tag() + (push.digest() == null ? "" : "@" + push.digest());
        Map<String, Map<String, String>> imagesByModuleChannel = new LinkedHashMap<>();
        for (ModuleDeployment d : index.running(push.repositoryReference()).stream().map(ModulePushIndex.Running::deployment).toList()) {
            d.containerImages().forEach((container, current) -> {
                if (sameRepository(current, push)) {
                    imagesByModuleChannel.computeIfAbsent(d.module() + "\n" + d.channel(), k -> new LinkedHashMap<>())
                            .put(container, image);
                }
            });
        }
        List<ModuleRelease> out = new ArrayList<>();
        imagesByModuleChannel.forEach((key, images) -> {
            String[] moduleAndChannel = key.split("\n", 2);
            out.add(new ModuleRelease(moduleAndChannel[0], version, moduleAndChannel[1], false, images, false,
                    SignatureCheck.missing("a registry push carries no signature"), "registry push of " + image));
        });
        return out;
    }

    private static boolean sameRepository(String image, ImagePushed push) {
        try {
            return ImageReference.parse(image).repositoryKey().equals(push.repositoryReference());
        } catch (IllegalArgumentException e) {
            return false;
        }
    }
}
