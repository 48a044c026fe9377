package dev.rekon.rollouts.status;

import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonInclude;

import dev.rekon.core.ObjectRef;
import dev.rekon.status.AreaSection;
import dev.rekon.status.StatusReport.Decision;
import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * The rollouts' section of the page (area {@code rollouts}; JSON {@code rollouts}, {@code images} and
 * {@code prunes} at the top of the document): one row per ImageDeploy as its plan has it, problems first, beside
 * the last decision this replica took about it; the kpack Images they name; the Deployments the next resync
 * deletes. Its HTML is {@code RolloutSection/rows.html}.
 */
@RegisterForReflection
public record RolloutSection(List<RolloutRow> rollouts, List<ImageRow> images, List<PruneRow> prunes)
        implements AreaSection {

    public RolloutSection {
        rollouts = List.copyOf(rollouts);
        images = List.copyOf(images);
        prunes = List.copyOf(prunes);
    }

    @Override
    public Slot slot() {
        return new Slot("rollouts", 10, Json.UNWRAPPED);
    }

    @Override
    public Map<String, Integer> counts() {
        Map<String, Integer> counts = new LinkedHashMap<>();
        counts.put("rollouts", rollouts.size());
        counts.put("rolloutProblems", (int) rollouts.stream().filter(RolloutRow::problem).count());
        counts.put("prunes", prunes.size());
        return counts;
    }

    @Override
    public String summaryHtml() {
        Map<String, Integer> c = counts();
        return AreaSection.counted(c.get("rollouts"), "ImageDeploys", c.get("rolloutProblems"), "with problems")
                + "\n  <span>" + c.get("prunes") + " pending prunes</span>";
    }

    /** Each row with the newest decision this replica took about its ImageDeploy (decisions come newest first). */
    @Override
    public RolloutSection decided(List<Decision> recent) {
        Map<String, LastOutcome> last = new HashMap<>();
        for (Decision d : recent) {
            for (ObjectRef o : d.objects()) {
                if ("ImageDeploy".equals(o.kind())) {
                    last.putIfAbsent(o.namespace() + "/" + o.name(), new LastOutcome(d.outcome(), d.reason(), d.time()));
                }
            }
        }
        return new RolloutSection(rollouts.stream().map(r -> new RolloutRow(r.apiVersion(), r.namespace(), r.name(),
                r.deployment(), r.state(), r.problem(), r.reason(), r.message(), r.inSync(), r.inSyncReason(),
                r.suspended(), r.containers(), r.progress(), last.get(r.namespace() + "/" + r.name()))).toList(),
                images, prunes);
    }

    /**
     * The replicas of a Deployment and its {@code Progressing} / {@code Available} conditions, as Kubernetes reports
     * them; {@code observed} is false while no Deployment controller has reported on it at all.
     */
    @RegisterForReflection
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Progress(boolean observed, int desired, int updated, int ready, int available, String progressing,
            String progressingReason, String availableStatus, String availableReason) {
    }

    /** One container whose image comes from a kpack Image: what runs, what Rekon applied, what is newest. */
    @RegisterForReflection
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record ContainerRow(String container, String image, String running, String appliedImage, Long appliedBuild,
            String newestImage, Long newestBuild, String state) {
    }

    /** The last decision this replica took about an object. */
    @RegisterForReflection
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record LastOutcome(String outcome, String reason, Instant time) {
    }

    /**
     * One ImageDeploy.
     *
     * @param state  {@code Failing}, {@code Drifted}, {@code Lagging}, {@code Suspended}, {@code RollingOut},
     *               {@code Waiting} or {@code Healthy}
     * @param inSync {@code True}, {@code False} or {@code Unknown}; {@code inSyncReason} {@code ManualChange} when False
     */
    @RegisterForReflection
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record RolloutRow(String apiVersion, String namespace, String name, String deployment, String state,
            boolean problem, String reason, String message, String inSync, String inSyncReason, boolean suspended,
            List<ContainerRow> containers, Progress progress, LastOutcome lastOutcome) {
    }

    /** A kpack Image an ImageDeploy names: its newest build, whether kpack says Ready, and who uses it. */
    @RegisterForReflection
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record ImageRow(String namespace, String name, boolean exists, String latestImage, Long build, boolean ready,
            String message, List<String> usedBy) {
    }

    /** A managed Deployment the next resync would delete, and why. */
    @RegisterForReflection
    public record PruneRow(String namespace, String deployment, String imageDeploy, String reason, String message) {
    }
}
