package dev.rekon.rollouts.plan;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import com.fasterxml.jackson.databind.JsonNode;

import dev.rekon.cluster.Conditions.Condition;
import dev.rekon.core.SemVer;
import dev.rekon.registry.ImageReference;
import dev.rekon.rollouts.view.DeploymentView;
import dev.rekon.rollouts.view.ImageDeployStatus;
import dev.rekon.rollouts.view.ImageDeployView;

/**
 * Decides what a registry push means for one ImageDeploy whose containers name the pushed repository directly
 * (not {@code REF=}): under its {@link UpdatePolicy}, a higher version moves those containers' images to
 * {@code repository:tag@digest}; a lower or equal version, a version outside the policy, or no policy changes
 * nothing. It compares with what the live Deployment runs, so it never goes backwards, and the same push twice
 * plans no write.
 */
public final class PushRolloutPlanner {

    public static final String INIT = "initContainer/";
    public static final String CONTAINER = "container/";

    /**
     * @param spec       the ImageDeploy's spec ({@code deployment} and {@code updatePolicy})
     * @param pushed     the pushed image: registry, repository, tag and (when known) digest
     * @param deployment the live Deployment, if there is one
     */
    public record Request(ImageDeployView imageDeploy, JsonNode spec, ImageReference pushed,
            Optional<DeploymentView> deployment, Instant now) {
    }

    /** A container whose image the ImageDeploy writes as the pushed repository. */
    record Follower(boolean init, String container) {
        String key() {
            return (init ? INIT : CONTAINER) + container;
        }
    }

    private record Verdict(String reason, String detail) {
    }

    /** The containers of the ImageDeploy's pod template whose image is written as the pushed repository. */
    public static List<Follower> followers(ImageDeployView idp, ImageReference pushed) {
        List<Follower> out = new ArrayList<>();
        JsonNode podSpec = idp.podSpec();
        for (String list : new String[] { "initContainers", "containers" }) {
            for (JsonNode c : podSpec.path(list)) {
                String image = c.path("image").asText("");
                if (!image.startsWith(ImageDeployView.REF_PREFIX) && sameRepository(image, pushed)) {
                    out.add(new Follower(list.equals("initContainers"), c.path("name").asText()));
                }
            }
        }
        return out;
    }

    public RolloutPlan plan(Request r) {
        ImageDeployView idp = r.imageDeploy();
        ImageReference pushed = r.pushed();
        UpdatePolicy policy;
        try {
            policy = UpdatePolicy.fromSpec(r.spec());
        } catch (IllegalArgumentException e) {
            String message = "ImageDeploy " + idp.name() + " has an invalid update policy: " + e.getMessage();
            return new RolloutPlan.Rejected("InvalidUpdatePolicy", message,
                    PushWrites.status(r, Map.of(), Condition.isFalse(RolloutPlanner.PROGRESSING, "InvalidUpdatePolicy",
                            message)));
        }
        List<Follower> followers = followers(idp, pushed);
        String repo = pushed.repositoryKey();
        if (policy == null || followers.isEmpty()) {
            return new RolloutPlan.NoChange(followers.isEmpty() ? "NotReferenced" : "NoUpdatePolicy",
                    followers.isEmpty() ? "ImageDeploy " + idp.name() + " has no container with image " + repo
                            : "ImageDeploy " + idp.name() + " has no spec.updatePolicy; pushes of " + repo
                                    + " are not rolled out (set semver or level to follow them)", null);
        }
        Optional<SemVer> version = SemVer.tryParse(pushed.tag());
        if (version.isEmpty()) {
            return new RolloutPlan.NoChange("NotAVersion", "pushed tag '" + pushed.tag() + "' of " + repo
                    + " is not a semantic version; ImageDeploy " + idp.name() + " follows " + policy, null);
        }
        if (r.deployment().isEmpty()) {
            return new RolloutPlan.NoChange("DeploymentNotFound", "Deployment " + idp.deploymentName()
                    + " does not exist yet; it is created from the ImageDeploy's spec, later pushes roll it forward", null);
        }
        if (idp.suspend()) {
            return new RolloutPlan.NoChange(RolloutPlanner.SUSPENDED, "ImageDeploy " + idp.name()
                    + " is suspended (spec.suspend: true): the push of " + PushWrites.desiredImage(pushed)
                    + " is not rolled out; set spec.suspend to false and push again", null);
        }
        return planPatch(r, policy, version.get(), followers, r.deployment().get());
    }

    private RolloutPlan planPatch(Request r, UpdatePolicy policy, SemVer version, List<Follower> followers,
            DeploymentView live) {
        String target = PushWrites.desiredImage(r.pushed());
        Map<Follower, String> changes = new LinkedHashMap<>();
        Map<Follower, String> upToDate = new LinkedHashMap<>();
        Verdict first = null;
        for (Follower f : followers) {
            String current = live.imageOf(f.init(), f.container());
            Verdict verdict = current == null ? new Verdict("ContainerNotFound", "Deployment " + live.name()
                    + " has no " + f.key() + "; its image was left alone") : verdict(policy, version, r.pushed(), f, current);
            if (verdict == null) {
                changes.put(f, PushWrites.withRepositoryOf(current, target));
            } else if (verdict.reason().equals("UpToDate")) {
                upToDate.put(f, current);
            }
            first = first == null || first.reason().equals("ContainerNotFound") ? verdict : first;
        }
        if (changes.isEmpty()) {
            ImageDeployStatus status = upToDate.isEmpty() ? null : PushWrites.status(r, upToDate, Condition.isTrue(
                    RolloutPlanner.PROGRESSING, "ImageUpdated", "Deployment " + live.name() + " runs "
                            + PushWrites.describe(upToDate)));
            return new RolloutPlan.NoChange(first.reason(), first.detail(), status);
        }
        String message = "set " + PushWrites.describe(changes) + " in Deployment " + live.name() + " (push of " + target
                + ", update policy " + policy + ")";
        return new RolloutPlan.PatchImages(PushWrites.patch(live, changes), "ImageUpdated", message,
                PushWrites.status(r, changes, Condition.isTrue(RolloutPlanner.PROGRESSING, "ImageUpdated", message)));
    }

    /** Why the follower keeps its image, or null when it takes the push. */
    private static Verdict verdict(UpdatePolicy policy, SemVer version, ImageReference pushed, Follower f, String current) {
        ImageReference running = parse(current);
        Optional<SemVer> runningVersion = running == null || !running.repositoryKey().equals(pushed.repositoryKey())
                ? Optional.empty() : SemVer.tryParse(running.tag());
        if (runningVersion.isEmpty()) {
            return new Verdict("RunningVersionUnknown", f.key() + " runs '" + current + "', which is not a semantic"
                    + " version of " + pushed.repositoryKey() + "; write its image with a version tag to let pushes move it");
        }
        String refusal = policy.refusal(runningVersion.get(), version);
        if (refusal == null) {
            return null;
        }
        int cmp = version.compareTo(runningVersion.get());
        boolean sameDigest = pushed.digest() == null || pushed.digest().equals(running.digest());
        String reason = cmp < 0 ? "OlderVersion" : cmp == 0 ? (sameDigest ? "UpToDate" : "SameVersion") : "OutsidePolicy";
        return new Verdict(reason, "pushed " + pushed.tag() + (pushed.digest() == null ? "" : "@" + pushed.digest())
                + " is not rolled out to " + f.key() + ", which runs " + current + ": " + refusal
                + (reason.equals("SameVersion") ? "; a moved tag is not followed, push a new version" : ""));
    }

    private static boolean sameRepository(String image, ImageReference pushed) {
        ImageReference ref = parse(image);
        return ref != null && ref.repositoryKey().equals(pushed.repositoryKey());
    }

    private static ImageReference parse(String image) {
        try {
            return ImageReference.parse(image);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }
}
