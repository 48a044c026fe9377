package dev.rekon.rollouts;

import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.rekon.cluster.EventRecorder;
import dev.rekon.cluster.KubeErrors;
import dev.rekon.cluster.KubeErrors.PermanentApiException;
import dev.rekon.core.ObjectRef;
import dev.rekon.core.Outcome;
import dev.rekon.core.Reply;
import dev.rekon.core.TransientFailureException;

/**
 * Runs image rollouts: reads what the planner needs (ImageDeploys and managed Deployments from watch caches),
 * asks {@link RolloutPlanner} for a plan per ImageDeploy, applies it, and records Kubernetes Events. The
 * Deployment is written first, in one write guarded by the resourceVersion the plan was made from that also
 * records the applied builds in its annotation: of two racing events only one can win it, and the loser plans
 * again from a fresh read that shows the newer build, so a late event can never move the Deployment backwards.
 * The ImageDeploy status follows after the reply, through {@link StatusReports}, as the report of what was
 * applied. A conflict is retried here from fresh reads (up to 8 times: one per racing event) before it becomes
 * a 503.
 */
@ApplicationScoped
public class RolloutService {

    @Inject
    RolloutGateway gateway;

    @Inject
    EventRecorder events;

    @Inject
    StatusReports statusReports;

    Clock clock = Clock.systemUTC();

    static final int CONFLICT_ATTEMPTS = 8;

    private final RolloutPlanner planner = new RolloutPlanner();

    /** A kpack Image reported a build (ApiServerSource or manual event): roll it out where it is referenced. */
    public Reply imageBuilt(KpackImage image) {
        if (!image.rollable()) {
            return Reply.unchanged("ImageNotReady", "kpack Image " + image.namespace() + "/" + image.name()
                    + " is not ready: " + image.notReadyMessage() + "; nothing to roll out", List.of());
        }
        List<ImageDeployView> targets = gateway.imageDeploysReferencing(image.namespace(), image.name());
        if (targets.isEmpty()) {
            return Reply.unchanged("NoImageDeploys", "no ImageDeploy in namespace " + image.namespace()
                    + " references kpack Image " + image.name() + " (write its image as REF=" + image.name() + ")",
                    List.of());
        }
        List<Reply> replies = new ArrayList<>();
        for (ImageDeployView idp : targets) {
            replies.add(retryingConflicts(idp, (current, fresh) -> rollOut(current,
                    new LinkedHashMap<>(Map.of(image.name(), image)), Set.of(image.name()), fresh)));
        }
        return combine(replies);
    }

    /** One rollout attempt; {@code fresh} when the Deployment must be read from the apiserver, not a cache. */
    interface Attempt {
        Reply run(ImageDeployView idp, boolean fresh);
    }

    /**
     * Runs a rollout; on a write conflict (another event changed the ImageDeploy or the Deployment since it
     * was read, or a cache was behind) plans again from fresh reads, so that concurrent events settle here
     * instead of in redeliveries.
     */
    Reply retryingConflicts(ImageDeployView idp, Attempt rollout) {
        ImageDeployView current = idp;
        for (int attempt = 1;; attempt++) {
            try {
                return rollout.run(current, attempt > 1);
            } catch (TransientFailureException e) {
                if (attempt >= CONFLICT_ATTEMPTS || !KubeErrors.isConflict(e)) {
                    throw e;
                }
                Optional<ImageDeployView> reread = gateway.imageDeploy(current.group(), current.namespace(),
                        current.name());
                if (reread.isEmpty()) {
                    return Reply.unchanged("ImageDeployNotFound", "ImageDeploy " + current.namespace() + "/"
                            + current.name() + " no longer exists", List.of());
                }
                current = reread.get();
            }
        }
    }

    /** An ImageDeploy was added or changed: bring its Deployment in line with the current Images. */
    public Reply imageDeployChanged(ImageDeployView idp) {
        return retryingConflicts(idp, this::followImages);
    }

    /** A resync found the ImageDeploy behind: handled as its update event, with the Images its watch holds. */
    public Reply converge(ImageDeployView idp, Map<String, KpackImage> images) {
        Set<String> names = new LinkedHashSet<>();
        idp.refs().forEach(r -> names.add(r.imageName()));
        return retryingConflicts(idp, (current, fresh) -> rollOut(current, new LinkedHashMap<>(images), names, fresh));
    }

    private Reply followImages(ImageDeployView idp, boolean fresh) {
        Set<String> names = new LinkedHashSet<>();
        idp.refs().forEach(r -> names.add(r.imageName()));
        Map<String, KpackImage> images = new LinkedHashMap<>();
        for (String name : names) {
            gateway.image(idp.namespace(), name).ifPresent(i -> images.put(name, i));
        }
        return rollOut(idp, images, names, fresh);
    }

    /**
     * An ImageDeploy was deleted: delete the Deployment it owns. A garbage collector would do the same via
     * the ownerReference, but none may be running. A Deployment it does not own is left alone.
     */
    public Reply imageDeployDeleted(String group, String namespace, String name, String uid, String deploymentName) {
        Optional<ImageDeployView> now = gateway.imageDeploy(group, namespace, name);
        if (now.isPresent()) {
            return Reply.unchanged("ImageDeployExists", "ImageDeploy " + namespace + "/" + name
                    + " exists again (uid " + now.get().uid() + "); its Deployment is kept", List.of());
        }
        // A Reference-mode delete carries no spec: the label Rekon put on the Deployment names its ImageDeploy.
        String target = deploymentName != null ? deploymentName
                : gateway.deploymentLabelledFor(namespace, name).orElse(name);
        Optional<DeploymentView> deployment = gateway.deployment(namespace, target);
        ObjectRef ref = new ObjectRef("apps/v1", "Deployment", namespace, target);
        if (deployment.isEmpty()) {
            return Reply.unchanged("NoDeployment", "Deployment " + namespace + "/" + target + " is already gone",
                    List.of(ref));
        }
        if (!ownedByImageDeploy(deployment.get(), name, uid)) {
            return Reply.unchanged("NotOwned", "Deployment " + namespace + "/" + target
                    + " is not owned by ImageDeploy " + name + "; it is left in place", List.of(ref));
        }
        gateway.deleteDeployment(namespace, target);
        return Reply.applied("DeploymentDeleted", "deleted Deployment " + namespace + "/" + target
                + " of the deleted ImageDeploy " + name, List.of(ref));
    }

    private static boolean ownedByImageDeploy(DeploymentView d, String name, String uid) {
        for (var o : d.ownerReferences()) {
            if ("ImageDeploy".equals(o.path("kind").asText()) && name.equals(o.path("name").asText())
                    && (uid == null || uid.equals(o.path("uid").asText()))) {
                return true;
            }
        }
        return false;
    }

    private Reply rollOut(ImageDeployView idp, Map<String, KpackImage> images, Set<String> concerned, boolean fresh) {
        Optional<DeploymentView> deployment = fresh ? gateway.deployment(idp.namespace(), idp.deploymentName())
                : gateway.deploymentCachedOrRead(idp.namespace(), idp.deploymentName());
        Set<String> scope = concerned;
        if (deployment.isEmpty()) {
            // A new Deployment needs every referenced image, not only the one this event is about.
            scope = new LinkedHashSet<>(concerned);
            for (var ref : idp.refs()) {
                if (scope.add(ref.imageName())) {
                    gateway.image(idp.namespace(), ref.imageName()).ifPresent(i -> images.put(i.name(), i));
                }
            }
        }
        Set<String> planned = scope;
        RolloutPlan plan = planner.plan(new RolloutPlanner.Request(idp, images, planned, deployment, clock.instant()));
        List<ObjectRef> touched = List.of(new ObjectRef(idp.apiVersion(), idp.kind(), idp.namespace(), idp.name()),
                new ObjectRef("apps/v1", "Deployment", idp.namespace(), idp.deploymentName()));
        try {
            writeDeployment(idp, plan);
        } catch (PermanentApiException e) {
            return Reply.rejected("ApiRefused", e.getMessage(), touched);
        }
        reportStatus(idp, plan, reread -> planner.statusAfter(new RolloutPlanner.Request(reread, images, planned,
                gateway.deployment(reread.namespace(), reread.deploymentName()), clock.instant()), plan));
        recordEvents(idp, plan);
        return new Reply(plan.outcome(), plan.reason(), plan.message(), touched);
    }

    /**
     * The status is the report of what the Deployment's guarded write decided, not the lock, so it is written
     * after the reply: the event waits for one write, as a raw PATCH would, and a burst of events for one
     * ImageDeploy becomes a few status writes instead of one each.
     */
    private void reportStatus(ImageDeployView idp, RolloutPlan plan, Function<ImageDeployView, ObjectNode> replan) {
        if (plan.status() != null) {
            statusReports.submit(idp, plan.outcome() == Outcome.APPLIED, () -> writeStatus(idp, plan, replan));
        }
    }

    /**
     * For push rollouts, whose record of the applied tag is the status alone: status first, guarded by the
     * ImageDeploy's resourceVersion, so it acts as the lock between racing pushes. Should the Deployment
     * write fail after it, the redelivered push finds the status already saying so and patches the Deployment alone.
     */
    void applyStatusFirst(ImageDeployView idp, RolloutPlan plan) {
        if (plan.status() != null) {
            gateway.writeStatus(idp, plan.status());
        }
        writeDeployment(idp, plan);
        recordEvents(idp, plan);
    }

    private void writeDeployment(ImageDeployView idp, RolloutPlan plan) {
        if (plan instanceof RolloutPlan.Create c) {
            gateway.createDeployment(c.deployment());
        } else if (plan instanceof RolloutPlan.PatchImages p) {
            gateway.patchDeployment(idp.namespace(), idp.deploymentName(), p.patch());
        }
    }

    /**
     * Writes the plan's status guarded by the ImageDeploy version it was planned from. On a conflict (another
     * report, or a change of the ImageDeploy, came first) the Deployment write (if any) has already happened,
     * so only the status is planned again, by {@code replan} from a fresh ImageDeploy read.
     */
    private void writeStatus(ImageDeployView idp, RolloutPlan plan,
            Function<ImageDeployView, ObjectNode> replan) {
        ImageDeployView current = idp;
        var status = plan.status();
        for (int attempt = 1; status != null; attempt++) {
            try {
                gateway.writeStatus(current, status);
                return;
            } catch (TransientFailureException e) {
                if (attempt >= CONFLICT_ATTEMPTS || !KubeErrors.isConflict(e)) {
                    throw e;
                }
                Optional<ImageDeployView> reread = gateway.imageDeploy(idp.group(), idp.namespace(), idp.name());
                if (reread.isEmpty()) {
                    return;
                }
                current = reread.get();
                status = replan.apply(current);
            }
        }
    }

    private void recordEvents(ImageDeployView idp, RolloutPlan plan) {
        String manualChange = ManualChanges.newlyReported(idp.status(), plan.status());
        if (manualChange != null) {
            events.warning(RolloutGateway.reference(idp.apiVersion(), idp.kind(), idp.namespace(), idp.name()),
                    ManualChanges.REASON, manualChange);
        }
        if (plan.outcome() == Outcome.APPLIED) {
            events.normal(RolloutGateway.reference(idp.apiVersion(), idp.kind(), idp.namespace(), idp.name()),
                    plan.reason(), plan.message());
            events.normal(RolloutGateway.reference("apps/v1", "Deployment", idp.namespace(), idp.deploymentName()),
                    plan.reason(), plan.message());
        }
    }

    /** One reply for several ImageDeploys: applied if any was, rejected only if all were. */
    static Reply combine(List<Reply> replies) {
        if (replies.size() == 1) {
            return replies.get(0);
        }
        List<ObjectRef> objects = new ArrayList<>();
        List<String> messages = new ArrayList<>();
        replies.forEach(r -> {
            objects.addAll(r.objects());
            messages.add(r.message());
        });
        Reply lead = replies.stream().filter(r -> r.outcome() == Outcome.APPLIED).findFirst()
                .orElse(replies.stream().filter(r -> r.outcome() == Outcome.UNCHANGED).findFirst()
                        .orElse(replies.get(0)));
        String reason = replies.stream().allMatch(r -> r.reason().equals(lead.reason())) ? lead.reason()
                : lead.reason() + "AndOthers";
        return new Reply(lead.outcome(), reason, String.join("; ", messages), objects);
    }
}
