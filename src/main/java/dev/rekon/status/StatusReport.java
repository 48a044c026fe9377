package dev.rekon.status;

import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonInclude;

import dev.rekon.core.ObjectRef;
import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * The document {@code GET /status} answers and {@code GET /} renders: one row per object Rekon manages, problem
 * rows first, each with its state and the reason for it; what the next resync would delete; the modules Kymas
 * install ({@link LifecycleSection}); the DeclaredStates ({@link DeclaredSection}); the sections areas own
 * ({@link AreaSection}, by key); and this replica's recent decisions.
 */
@RegisterForReflection
@JsonInclude(JsonInclude.Include.NON_NULL)
public record StatusReport(Instant generatedAt, String namespace, Summary summary, List<RolloutRow> rollouts,
        List<ImageRow> images, List<PruneRow> prunes, List<BuildpackRow> buildpacks, List<BuilderRow> builders, List<ModuleRow> modules,
        LifecycleSection lifecycle, DeclaredSection declared, PromotionSection promotions,
        Map<String, AreaSection> sections, Decisions decisions, List<String> unavailable) {

    public StatusReport {
        sections = sections == null || sections.isEmpty() ? null : Collections.unmodifiableMap(new LinkedHashMap<>(sections));
    }

    /** The report without the lifecycle modules and DeclaredStates, which their {@link AreaReport}s add. */
    public StatusReport(Instant generatedAt, String namespace, Summary summary, List<RolloutRow> rollouts,
            List<ImageRow> images, List<PruneRow> prunes, List<BuildpackRow> buildpacks, List<BuilderRow> builders,
            List<ModuleRow> modules, Decisions decisions, List<String> unavailable) {
        this(generatedAt, namespace, summary, rollouts, images, prunes, buildpacks, builders, modules, null, null, null,
                null, decisions, unavailable);
    }

    /** A report of nothing yet, for the areas' {@link AreaReport}s to add their rows to. */
    public static StatusReport empty(Instant generatedAt, String namespace) {
        return new StatusReport(generatedAt, namespace, null, null, null, null, null, null, null, null, null, null, null,
                null, List.of());
    }

    /** The report with the rollouts rows: each ImageDeploy's plan, the Images they name, the planned deletes. */
    public StatusReport withRollouts(List<RolloutRow> rows, List<ImageRow> imageRows, List<PruneRow> pruneRows) {
        return new StatusReport(generatedAt, namespace, summary, rows, imageRows, pruneRows, buildpacks, builders,
                modules, lifecycle, declared, promotions, sections, decisions, unavailable);
    }

    /** The report with the module rows: each module's plan on each channel. */
    public StatusReport withModules(List<ModuleRow> rows) {
        return new StatusReport(generatedAt, namespace, summary, rollouts, images, prunes, buildpacks, builders,
                rows, lifecycle, declared, promotions, sections, decisions, unavailable);
    }

    /** The report with the Buildpack and Builder rows. */
    public StatusReport withBuilds(List<BuildpackRow> buildpackRows, List<BuilderRow> builderRows) {
        return new StatusReport(generatedAt, namespace, summary, rollouts, images, prunes, buildpackRows, builderRows,
                modules, lifecycle, declared, promotions, sections, decisions, unavailable);
    }

    /** The report with this replica's recent decisions (null: not asked for). */
    public StatusReport withDecisions(Decisions recent) {
        return new StatusReport(generatedAt, namespace, summary, rollouts, images, prunes, buildpacks, builders,
                modules, lifecycle, declared, promotions, sections, recent, unavailable);
    }

    /** The report with what could not be watched, and the summary counted from its rows. */
    public StatusReport summarized(List<String> missing) {
        Summary counted = new Summary(size(rollouts), count(rollouts, RolloutRow::problem), size(prunes),
                size(buildpacks), size(builders), count(buildpacks, BuildpackRow::problem)
                        + count(builders, BuilderRow::problem), size(modules), count(modules, ModuleRow::problem));
        return new StatusReport(generatedAt, namespace, counted, rollouts, images, prunes, buildpacks, builders,
                modules, lifecycle, declared, promotions, sections, decisions, List.copyOf(missing));
    }

    /** The rollout rows with the last outcome this replica decided for each ImageDeploy ({@code namespace/name}). */
    public StatusReport withLastOutcomes(java.util.Map<String, LastOutcome> last) {
        if (rollouts == null) {
            return this;
        }
        List<RolloutRow> rows = rollouts.stream().map(r -> new RolloutRow(r.apiVersion(), r.namespace(), r.name(),
                r.deployment(), r.state(), r.problem(), r.reason(), r.message(), r.inSync(), r.inSyncReason(),
                r.suspended(), r.containers(), r.progress(), last.get(r.namespace() + "/" + r.name()))).toList();
        return new StatusReport(generatedAt, namespace, summary, rows, images, prunes, buildpacks, builders, modules,
                lifecycle, declared, promotions, sections, decisions, unavailable);
    }

    private static int size(List<?> rows) {
        return rows == null ? 0 : rows.size();
    }

    private static <R> int count(List<R> rows, java.util.function.Predicate<R> problem) {
        return rows == null ? 0 : (int) rows.stream().filter(problem).count();
    }

    public StatusReport withLifecycle(LifecycleSection section) {
        return new StatusReport(generatedAt, namespace, summary, rollouts, images, prunes, buildpacks, builders, modules,
                section, declared, promotions, sections, decisions, unavailable);
    }

    public StatusReport withDeclared(DeclaredSection section) {
        return new StatusReport(generatedAt, namespace, summary, rollouts, images, prunes, buildpacks, builders, modules,
                lifecycle, section, promotions, sections, decisions, unavailable);
    }

    public StatusReport withPromotions(PromotionSection section) {
        return new StatusReport(generatedAt, namespace, summary, rollouts, images, prunes, buildpacks, builders, modules,
                lifecycle, declared, section, sections, decisions, unavailable);
    }

    /**
     * The report with a section its area owns (under {@code sections.<key>}, after those added before): a new area
     * adds its part of the page without a field here.
     */
    public StatusReport withSection(AreaSection section) {
        Map<String, AreaSection> more = new LinkedHashMap<>(sections == null ? Map.of() : sections);
        more.put(section.key(), section);
        return new StatusReport(generatedAt, namespace, summary, rollouts, images, prunes, buildpacks, builders, modules,
                lifecycle, declared, promotions, more, decisions, unavailable);
    }

    /** How many rows need a person's attention, per area. */
    @RegisterForReflection
    public record Summary(int rollouts, int rolloutProblems, int prunes, int buildpacks, int builders,
            int buildProblems, int modules, int modulesHeldBack) {
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

    /** One Buildpack or ClusterBuildpack. */
    @RegisterForReflection
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record BuildpackRow(String kind, String namespace, String name, String image, String digest, String ready,
            boolean problem, String reason, String message, String lastRead, List<String> buildpacks) {
    }

    /** One Builder or ClusterBuilder, with its resolved order in short. */
    @RegisterForReflection
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record BuilderRow(String kind, String namespace, String name, String ready, boolean problem, String reason,
            String error, List<String> order) {
    }

    /**
     * One module on one channel.
     *
     * @param state {@code HeldBack} (with the policy's reason), {@code Pending} (the newest release would apply),
     *              {@code UpToDate} or {@code Unknown}
     */
    @RegisterForReflection
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record ModuleRow(String module, String channel, String version, boolean enabled, String newestOnChannel,
            String state, boolean problem, String reason, String message, List<String> deployments) {
    }

    /** This replica's recent event outcomes, newest first. */
    @RegisterForReflection
    public record Decisions(String scope, int kept, List<Decision> recent) {
    }

    /** The outcome of one event this replica handled. */
    @RegisterForReflection
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Decision(Instant time, String type, String outcome, String reason, String message,
            List<ObjectRef> objects) {

        public Decision {
            objects = objects == null ? List.of() : List.copyOf(objects);
        }
    }
}
