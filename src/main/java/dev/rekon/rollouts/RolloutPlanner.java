package dev.rekon.rollouts;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.rekon.cluster.Conditions;
import dev.rekon.cluster.JsonEquality;
import dev.rekon.cluster.Conditions.Condition;
import dev.rekon.core.Outcome;
import dev.rekon.rollouts.DeploymentWrites.Target;
import dev.rekon.rollouts.ImageDeployView.ContainerRef;

/**
 * Decides how one ImageDeploy's Deployment follows its kpack Images: create it, patch only the images that
 * changed, or leave it. It never goes backwards (an older build than the one applied is ignored), never
 * writes twice (a status that already says the same is not written), and touches nothing but images.
 */
public final class RolloutPlanner {

    public static final String MANAGED_BY = "app.kubernetes.io/managed-by";
    public static final String IMAGEDEPLOY_LABEL = "rekon.dev/imagedeploy";
    public static final String READY = "Ready";
    public static final String PROGRESSING = "Progressing";
    public static final String IN_SYNC = ManualChanges.IN_SYNC;
    public static final String SUSPENDED = "Suspended";
    public static final String CONFLICT = "DeploymentConflict";

    /**
     * The facts one plan is made from.
     *
     * @param images     the kpack Images read for this event, by name; a name in {@code concerned} that is
     *                   absent here does not exist in the cluster
     * @param concerned  the Image names this event is about: one for an Image event, all references for an
     *                   ImageDeploy event
     * @param deployment the live Deployment, if there is one
     */
    public record Request(ImageDeployView imageDeploy, Map<String, KpackImage> images, Set<String> concerned,
            Optional<DeploymentView> deployment, Instant now) {
    }


    public RolloutPlan plan(Request r) {
        ImageDeployView idp = r.imageDeploy();
        String problem = idp.specProblem();
        if (problem != null) {
            return new RolloutPlan.Rejected("InvalidSpec", problem,
                    status(r, Map.of(), Condition.isFalse(READY, "InvalidSpec", problem), null, null));
        }
        String foreign = r.deployment().filter(d -> !d.managedByRekon() && !d.ownedBy(idp.uid()))
                .map(DeploymentView::name).orElse(null);
        if (foreign != null) {
            String message = "Deployment " + foreign + " exists but is not Rekon's (no label " + MANAGED_BY
                    + "=rekon, not owned by ImageDeploy " + idp.name() + "); it is left alone: rename"
                    + " spec.deployment.metadata.name, or delete that Deployment to let Rekon create its own";
            return new RolloutPlan.Rejected(CONFLICT, message,
                    status(r, Map.of(), Condition.isFalse(READY, CONFLICT, message), null, null));
        }
        List<ContainerRef> refs = idp.refs();
        Set<String> missing = new LinkedHashSet<>();
        Set<String> notReady = new LinkedHashSet<>();
        Set<String> older = new LinkedHashSet<>();
        Map<String, KpackImage> usable = new LinkedHashMap<>();
        Map<String, AppliedImage> applied = RolloutStatus.memory(r);
        for (ContainerRef ref : refs) {
            String name = ref.imageName();
            if (!r.concerned().contains(name) || usable.containsKey(name)) {
                continue;
            }
            KpackImage image = r.images().get(name);
            if (image == null) {
                missing.add(name);
            } else if (!image.rollable()) {
                notReady.add(name);
            } else if (applied.containsKey(name) && applied.get(name).isNewerThan(image)) {
                older.add(name);
            } else {
                usable.put(name, image);
            }
        }
        if (!missing.isEmpty()) {
            String message = "kpack Image " + names(missing) + " referenced by ImageDeploy " + idp.name()
                    + " does not exist in namespace " + idp.namespace() + ": create it or fix the REF= image";
            return new RolloutPlan.Rejected("ImageNotFound", message,
                    status(r, Map.of(), Condition.isFalse(READY, "ImageNotFound", message), null, null));
        }
        RolloutPlan plan = r.deployment().isEmpty() ? planCreate(r, refs, usable, notReady, older)
                : planPatch(r, refs, usable, notReady, older, r.deployment().get());
        return idp.suspend() && plan instanceof RolloutPlan.NoChange n && !SUSPENDED.equals(n.reason())
                ? new RolloutPlan.NoChange(SUSPENDED, suspendedPrefix(idp) + n.message(), n.status())
                : plan;
    }

    private RolloutPlan planCreate(Request r, List<ContainerRef> refs, Map<String, KpackImage> usable,
            Set<String> notReady, Set<String> older) {
        ImageDeployView idp = r.imageDeploy();
        Set<String> unresolved = new LinkedHashSet<>();
        for (ContainerRef ref : refs) {
            if (!usable.containsKey(ref.imageName())) {
                unresolved.add(ref.imageName());
            }
        }
        if (!unresolved.isEmpty()) {
            String message = "Deployment " + idp.deploymentName() + " is not created yet: kpack Image "
                    + names(unresolved) + " has no ready image" + notReadyDetail(r, unresolved, notReady, older);
            return new RolloutPlan.NoChange("ImageNotReady", message,
                    status(r, Map.of(), Condition.isFalse(READY, "ImageNotReady", message), null, null));
        }
        if (idp.suspend()) {
            return hold(r, usable.values(), null);
        }
        ObjectNode deployment = DeploymentWrites.create(idp, usable, RolloutStatus.appliedBuilds(r, usable));
        String message = "created Deployment " + idp.deploymentName() + " with " + DeploymentWrites.describe(refs, usable);
        return new RolloutPlan.Create(deployment, "DeploymentCreated", message,
                status(r, usable, ready(idp), Condition.isTrue(PROGRESSING, "DeploymentCreated", message),
                        ManualChanges.condition(List.of(), idp.deploymentName())));
    }

    private RolloutPlan planPatch(Request r, List<ContainerRef> refs, Map<String, KpackImage> usable,
            Set<String> notReady, Set<String> older, DeploymentView live) {
        ImageDeployView idp = r.imageDeploy();
        List<Target> changes = new ArrayList<>();
        List<String> absent = new ArrayList<>();
        for (ContainerRef ref : refs) {
            KpackImage image = usable.get(ref.imageName());
            AppliedImage recorded = live.applied().get(ref.imageName());
            if (image == null || recorded != null && !ManualChanges.newer(image, recorded)) {
                // Rekon's write of this build stands; a container that differs was changed by hand (reported below).
                continue;
            }
            String current = live.imageOf(ref.init(), ref.container());
            if (current == null && !(ref.init() ? live.initContainers() : live.containers()).containsKey(ref.container())) {
                absent.add(ref.container());
            } else if (!image.latestImage().equals(current)) {
                changes.add(new Target(ref, image.latestImage()));
            }
        }
        Set<ContainerRef> rolling = new LinkedHashSet<>(changes.stream().map(Target::ref).toList());
        List<ManualChanges.Drift> drifts = ManualChanges.find(refs, r.images(), rolling, live);
        Condition inSync = ManualChanges.condition(drifts, live.name());
        Condition readiness = !notReady.isEmpty()
                ? Condition.isFalse(READY, "ImageNotReady", "kpack Image " + names(notReady)
                        + " is not ready; Deployment " + live.name() + " keeps its current image"
                        + notReadyDetail(r, notReady, notReady, Set.of()))
                : ready(idp);
        if (changes.isEmpty()) {
            ObjectNode status = status(r, usable, readiness, null, inSync);
            String[] why = unchangedReason(r, live, usable, notReady, older, absent, drifts);
            return new RolloutPlan.NoChange(why[0], why[1], status);
        }
        if (r.imageDeploy().suspend()) {
            Map<String, KpackImage> waiting = new LinkedHashMap<>();
            changes.forEach(t -> waiting.put(t.ref().imageName(), usable.get(t.ref().imageName())));
            return hold(r, waiting.values(), inSync);
        }
        String message = "set " + DeploymentWrites.describeChanges(changes, usable) + " in Deployment " + live.name();
        return new RolloutPlan.PatchImages(DeploymentWrites.patch(live, changes, RolloutStatus.appliedBuilds(r, usable)), "ImageUpdated",
                message, status(r, usable, readiness, Condition.isTrue(PROGRESSING, "ImageUpdated", message), inSync));
    }

    private static String[] unchangedReason(Request r, DeploymentView live, Map<String, KpackImage> usable,
            Set<String> notReady, Set<String> older, List<String> absent, List<ManualChanges.Drift> drifts) {
        Map<String, AppliedImage> applied = RolloutStatus.memory(r);
        if (!older.isEmpty()) {
            String name = older.iterator().next();
            KpackImage img = r.images().get(name);
            AppliedImage a = applied.get(name);
            return new String[] { "OlderBuild", AppliedImage.describe(img.buildCounter(), img.buildTime())
                    + " of kpack Image " + name + " is older than " + AppliedImage.describe(a.buildCounter(), a.buildTime())
                    + " already applied to Deployment " + live.name() + "; nothing changed" };
        }
        if (!drifts.isEmpty()) {
            return new String[] { ManualChanges.REASON, ManualChanges.message(drifts, live.name()) };
        }
        if (!notReady.isEmpty() && usable.isEmpty()) {
            return new String[] { "ImageNotReady", "kpack Image " + names(notReady)
                    + " is not ready; Deployment " + live.name() + " keeps its current image" };
        }
        if (!absent.isEmpty()) {
            return new String[] { "ContainerNotFound", "Deployment " + live.name() + " has no container "
                    + String.join(", ", absent) + "; its image was left alone" };
        }
        return new String[] { "UpToDate", "Deployment " + live.name() + " already runs "
                + String.join(", ", usable.values().stream().map(KpackImage::latestImage).toList()) };
    }

    /**
     * The status to write when the status write of {@code applied} met a conflict after its Deployment write
     * had succeeded: planned again from fresh reads, which now find the Deployment up to date, with the
     * Progressing condition of the rollout that did it. Null when there is nothing to write, or when the
     * Deployment has moved on since (the event that moved it writes its own status).
     */
    public ObjectNode statusAfter(Request fresh, RolloutPlan applied) {
        RolloutPlan again = plan(fresh);
        if (applied.outcome() != Outcome.APPLIED) {
            return again.status();
        }
        if (!"UpToDate".equals(again.reason())) {
            return null;
        }
        JsonNode current = fresh.imageDeploy().status();
        ObjectNode next = again.status() != null ? again.status() : current.deepCopy();
        next.set("conditions", Conditions.set(next.path("conditions"),
                Condition.isTrue(PROGRESSING, applied.reason(), applied.message()), fresh.imageDeploy().generation(),
                fresh.now()));
        return JsonEquality.same(next, current) ? null : next;
    }

    private static String notReadyDetail(Request r, Set<String> names, Set<String> notReady, Set<String> older) {
        StringBuilder sb = new StringBuilder();
        for (String n : names) {
            KpackImage img = r.images().get(n);
            if (notReady.contains(n) && img != null && img.notReadyMessage() != null) {
                sb.append("; ").append(n).append(": ").append(img.notReadyMessage());
            } else if (older.contains(n)) {
                sb.append("; ").append(n).append(": only an older build than the one applied was seen");
            }
        }
        return sb.toString();
    }

    private static Condition ready(ImageDeployView idp) {
        return Condition.isTrue(READY, "ImagesApplied",
                "Deployment " + idp.deploymentName() + " runs the latest ready build of every referenced kpack Image");
    }

    private static ObjectNode status(Request r, Map<String, KpackImage> rolled, Condition ready, Condition progressing,
            Condition inSync) {
        return RolloutStatus.compose(r, rolled, null, ready, progressing, inSync);
    }

    /**
     * Holds a rollout of a suspended ImageDeploy: the Deployment stays, and the status names the builds that
     * wait, so that lifting {@code spec.suspend} shows what it will apply.
     */
    private static RolloutPlan hold(Request r, java.util.Collection<KpackImage> waiting, Condition inSync) {
        List<String> parts = waiting.stream().map(i -> AppliedImage.describe(i.buildCounter(), i.buildTime())
                + " of kpack Image " + i.name() + " (" + i.latestImage() + ")").toList();
        String message = suspendedPrefix(r.imageDeploy()) + String.join(", ", parts) + " waits for Deployment "
                + r.imageDeploy().deploymentName() + "; set spec.suspend to false to roll it out";
        return new RolloutPlan.NoChange(SUSPENDED, message, RolloutStatus.compose(r, Map.of(),
                RolloutStatus.waiting(waiting), Condition.isFalse(PROGRESSING, SUSPENDED, message), inSync));
    }

    private static String suspendedPrefix(ImageDeployView idp) {
        return "ImageDeploy " + idp.name() + " is suspended (spec.suspend: true): ";
    }





    private static String names(Set<String> names) {
        return String.join(", ", names);
    }
}
