package dev.rekon.status;

import static dev.rekon.status.StatusFixtures.NS;
import static dev.rekon.status.StatusFixtures.digest;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import dev.rekon.buildpacks.BuildpackReport;
import dev.rekon.buildpacks.status.BuildSection;
import dev.rekon.core.NamespacePolicy;
import dev.rekon.core.ObjectRef;
import dev.rekon.modules.ModuleReport;
import dev.rekon.modules.ModuleTrust;
import dev.rekon.modules.ocm.SignatureVerifier;
import dev.rekon.modules.plan.ModuleUpdatePlanner;
import dev.rekon.modules.status.ModuleSection;
import dev.rekon.pipeline.NamespaceGuard;
import dev.rekon.pipeline.ReconcileLoop;
import dev.rekon.rollouts.RolloutReport;
import dev.rekon.rollouts.status.RolloutSection;
import dev.rekon.rollouts.status.RolloutSection.RolloutRow;

class StatusPlannerTest {

    static final Instant NOW = Instant.parse("2026-11-23T12:00:00Z");
    static final ModuleUpdatePlanner.Policy POLICY = new ModuleUpdatePlanner.Policy(false, Optional.empty());

    /** Every namespace allowed, the clock at {@link #NOW}: the rollouts rows are the loop's report-mode plans. */
    static final RolloutReport ROLLOUTS = RolloutReport.over(ReconcileLoop.of(NamespaceGuard.of(
            NamespacePolicy.parse("*"))), Clock.fixed(NOW, ZoneOffset.UTC));

    static final ModuleReport MODULES = ModuleReport.over(ReconcileLoop.of(NamespaceGuard.of(
            NamespacePolicy.parse("*"))), Clock.fixed(NOW, ZoneOffset.UTC),
            ModuleTrust.of(POLICY, new SignatureVerifier(List.of())));

    /** The report as {@code StatusRoutes} makes it: the areas' reports, then the rows made from views. */
    static StatusReport plan(StatusFixtures f, String namespace, String area) {
        StatusReport r = StatusReport.empty(NOW, namespace);
        if (area == null || "modules".equals(area)) {
            r = MODULES.addTo(r, f.modulesWatched(), namespace);
        }
        if (area == null || "rollouts".equals(area)) {
            r = ROLLOUTS.addTo(r, f.watched(), namespace);
        }
        if (area == null || "buildpacks".equals(area)) {
            r = BuildpackReport.addTo(r, f.buildpacks, f.builders, namespace);
        }
        return StatusPlanner.plan(r, new StatusPlanner.Request(f.decisions, namespace, area, NOW)).summarized(List.of());
    }

    static Map<String, RolloutRow> byName(StatusReport r) {
        return r.section(RolloutSection.class).rollouts().stream().collect(Collectors.toMap(RolloutRow::name, Function.identity()));
    }

    /** The four rollouts of the issue, and the cases between them: state, reason, InSync. */
    @ParameterizedTest(name = "{0}")
    @CsvSource({
            // case,          image build/ready, running, applied/build, suspend, updated, state, reason, inSync, inSyncReason
            "healthy,         2, true,  b, b, 2, false, 1, Healthy,    InSync,        True,    ",
            "lagging,         3, true,  b, b, 2, false, 1, Lagging,    NewerBuild,    False,   NewerBuild",
            "drifted,         2, true,  x, b, 2, false, 1, Drifted,    ManualChange,  False,   ManualChange",
            "drift+newer,     3, true,  x, b, 2, false, 1, Lagging,    NewerBuild,    False,   NewerBuild",
            "suspended,       3, true,  b, b, 2, true,  1, Suspended,  Suspended,     False,   NewerBuild",
            "not ready,       3, false, b, b, 2, false, 1, Healthy,    InSync,        True,    ",
            "rolling out,     2, true,  b, b, 2, false, 0, RollingOut, RollingOut,    True,    " })
    void decidesEachImageDeploysState(String name, long build, boolean ready, char running, char applied, long appliedBuild,
            boolean suspend, int updated, String state, String reason, String inSync, String inSyncReason) {
        StatusFixtures f = new StatusFixtures().imageDeploy(NS, "web", "web", "app", suspend)
                .image(NS, "app", build, digest((char) ('a' + build - 1)), ready)
                .deployment(NS, "web", "web", "app", digest(running), digest(applied), appliedBuild, 1, updated, updated);
        RolloutRow row = plan(f, null, null).section(RolloutSection.class).rollouts().get(0);
        assertEquals(state, row.state(), row.message());
        assertEquals(reason, row.reason());
        assertEquals(inSync, row.inSync());
        assertEquals(inSyncReason, row.inSyncReason());
        assertEquals(suspend, row.suspended());
        assertEquals(List.of("Failing", "Drifted", "Lagging").contains(state), row.problem());
    }

    @Test
    void problemRowsComeFirstWithTheirReasons() {
        StatusFixtures f = new StatusFixtures()
                .imageDeploy(NS, "a-healthy", "a-healthy", "app", false)
                .deployment(NS, "a-healthy", "a-healthy", "app", digest('b'), digest('b'), 2, 1, 1, 1)
                .imageDeploy(NS, "b-drifted", "b-drifted", "app", false)
                .deployment(NS, "b-drifted", "b-drifted", "app", "hand/edit:1", digest('b'), 2, 1, 1, 1)
                .imageDeploy(NS, "c-missing", "c-missing", "nope", false)
                .image(NS, "app", 2, digest('b'), true);
        StatusReport report = plan(f, null, null);
        assertEquals(List.of("c-missing", "b-drifted", "a-healthy"), report.section(RolloutSection.class).rollouts().stream().map(RolloutRow::name).toList());
        RolloutRow missing = report.section(RolloutSection.class).rollouts().get(0);
        assertEquals("ImageNotFound", missing.reason());
        assertTrue(missing.message().contains("kpack Image nope"), missing.message());
        RolloutRow drifted = report.section(RolloutSection.class).rollouts().get(1);
        assertTrue(drifted.message().contains("hand/edit:1") && drifted.message().contains("changed by hand"), drifted.message());
        assertEquals(2, report.summary().get("rolloutProblems"));
        assertEquals(List.of("a-healthy", "b-drifted"), report.section(RolloutSection.class).images().stream().filter(i -> i.name().equals("app"))
                .findFirst().orElseThrow().usedBy());
        assertFalse(report.section(RolloutSection.class).images().stream().filter(i -> i.name().equals("nope")).findFirst().orElseThrow().exists());
    }

    @Test
    void aMissingDeploymentLagsWhenItsImageHasABuild() {
        StatusFixtures f = new StatusFixtures().imageDeploy(NS, "new", "new-web", "app", false)
                .image(NS, "app", 1, digest('a'), true);
        RolloutRow row = plan(f, null, null).section(RolloutSection.class).rollouts().get(0);
        assertEquals("Lagging", row.state());
        assertEquals("DeploymentMissing", row.reason());
        assertEquals("Unknown", row.inSync());
        assertNull(row.progress());
    }

    @Test
    void prunesWhatLostItsImageDeployOrWasRenamedAway() {
        StatusFixtures f = new StatusFixtures().imageDeploy(NS, "kept", "kept-v2", "app", false)
                .image(NS, "app", 1, digest('a'), true)
                .deployment(NS, "kept", "kept", "app", digest('a'), digest('a'), 1, 1, 1, 1)
                .deployment(NS, "kept-v2", "kept", "app", digest('a'), digest('a'), 1, 1, 1, 1)
                .deployment(NS, "orphan", "deleted", "app", digest('a'), digest('a'), 1, 1, 1, 1);
        var prunes = plan(f, null, null).section(RolloutSection.class).prunes();
        assertEquals(List.of("kept:ImageDeployRenamed", "orphan:ImageDeployGone"),
                prunes.stream().map(p -> p.deployment() + ":" + p.reason()).toList());
    }

    /** The three cases the prune planner keeps, which the page once listed as deleted. */
    @Test
    void listsNoPruneTheResyncWouldNotDo() {
        StatusFixtures f = new StatusFixtures().imageDeploy(NS, "held", "held-v2", "app", true)
                .image(NS, "app", 1, digest('a'), true)
                .deployment(NS, "held", "held", "app", digest('a'), digest('a'), 1, 1, 1, 1)
                .deployment(NS, "unowned", "deleted", null, "app", digest('a'), digest('a'), 1, 1, 1, 1)
                .deployment(NS, "foreign", "deleted", "kpush.example/v1alpha1", "app", digest('a'), digest('a'), 1, 1,
                        1, 1);
        assertEquals(List.of(), plan(f, null, null).section(RolloutSection.class).prunes());
    }

    @Test
    void failingBuildersComeFirstWithTheirError() {
        StatusFixtures f = new StatusFixtures().builder("a-good", "True", "Resolved", "")
                .builder("b-bad", "False", "BuildpackNotFound", "no buildpack sample/java in the catalog")
                .buildpack("sample-java");
        StatusReport r = plan(f, null, null);
        assertEquals("b-bad", r.section(BuildSection.class).builders().get(0).name());
        assertEquals("no buildpack sample/java in the catalog", r.section(BuildSection.class).builders().get(0).error());
        assertNull(r.section(BuildSection.class).builders().get(1).error());
        assertEquals(List.of("sample/java"), r.section(BuildSection.class).builders().get(1).order());
        assertEquals("sha256:abc", r.section(BuildSection.class).buildpacks().get(0).digest());
        assertEquals(List.of("sample/java@1.0.0"), r.section(BuildSection.class).buildpacks().get(0).buildpacks());
        assertEquals(1, r.summary().get("buildProblems"));
    }

    @ParameterizedTest(name = "{0} offered {1}")
    @CsvSource({
            "0.4.1, 2.0.0, HeldBack, MajorStepTooLarge",
            "0.4.1, 0.4.3, Pending,  ReleaseNotApplied",
            "0.4.3, 0.4.3, UpToDate, AlreadyAtVersion",
            "0.4.3, 0.4.1, HeldBack, DowngradeRefused" })
    void modulesSayWhyTheNewestReleaseIsHeldBack(String running, String offered, String state, String reason) {
        var row = plan(new StatusFixtures().module(running, offered), null, null).section(ModuleSection.class).modules().get(0);
        assertEquals(state, row.state(), row.message());
        assertEquals(reason, row.reason());
        assertEquals(offered, row.newestOnChannel());
        assertEquals("HeldBack".equals(state), row.problem());
    }

    /** The release is the one ChannelReleases finds: in the ModuleReleaseMeta's namespace, by semver equality. */
    @Test
    void aModuleRowNamesTheReleaseTheEventsWouldApply() {
        StatusFixtures f = new StatusFixtures().module("0.4.1", "0.4.3");
        var elsewhere = (com.fasterxml.jackson.databind.node.ObjectNode) f.templates.remove(0);
        ((com.fasterxml.jackson.databind.node.ObjectNode) elsewhere.get("metadata")).put("namespace", "elsewhere");
        f.templates.add(elsewhere);
        var row = plan(f, null, null).section(ModuleSection.class).modules().get(0);
        assertEquals("NoModuleTemplate", row.reason(), "a template outside the ModuleReleaseMeta's namespace is not it");

        StatusFixtures padded = new StatusFixtures().module("0.4.1", "0.4.3");
        ((com.fasterxml.jackson.databind.node.ObjectNode) padded.metas.get(0).at("/spec/channels/0")).put("version",
                "0.4.3+build.7");
        var pending = plan(padded, null, null).section(ModuleSection.class).modules().get(0);
        assertEquals("Pending", pending.state(), "the same version by semver: " + pending.message());
    }

    @Test
    void filtersByNamespaceAndAreaAndLeavesOutClusterScopedObjects() {
        StatusFixtures f = new StatusFixtures().imageDeploy(NS, "web", "web", "app", false)
                .imageDeploy("other", "web", "web", "app", false).builder("cluster", "True", "Resolved", "")
                .module("0.4.1", "0.4.3");
        StatusReport shop = plan(f, NS, null);
        assertEquals(1, shop.section(RolloutSection.class).rollouts().size());
        assertEquals(List.of(), shop.section(BuildSection.class).builders());
        assertEquals(List.of(), shop.section(ModuleSection.class).modules());
        StatusReport modules = plan(f, null, "modules");
        assertNull(modules.section(RolloutSection.class));
        assertNull(modules.section(BuildSection.class));
        assertEquals(1, modules.section(ModuleSection.class).modules().size());
    }

    @Test
    void anImageDeploysLastOutcomeIsTheNewestDecisionNamingIt() {
        StatusFixtures f = new StatusFixtures().imageDeploy(NS, "web", "web", "app", false);
        ObjectRef idp = new ObjectRef("rekon.dev/v1alpha1", "ImageDeploy", NS, "web");
        f.decisions.add(new StatusReport.Decision(NOW, "dev.knative.apiserver.resource.update", "unchanged", "UpToDate",
                null, List.of(idp)));
        f.decisions.add(new StatusReport.Decision(NOW.minusSeconds(60), "dev.knative.apiserver.resource.update",
                "applied", "DeploymentCreated", null, List.of(idp)));
        StatusReport r = plan(f, null, null);
        assertEquals("UpToDate", r.section(RolloutSection.class).rollouts().get(0).lastOutcome().reason());
        assertEquals(2, r.decisions().recent().size());
        assertTrue(r.decisions().scope().contains("this replica only"));
        assertEquals(0, plan(f, "other", null).decisions().recent().size());
    }

    @Test
    void aBuildpackWhoseStatusNamesNoStoredImageIsStillARow() {
        var views = List.of(dev.rekon.buildpacks.view.BuildpackView.of(StatusFixtures.json("""
                {"apiVersion": "kpack.io/v1alpha2", "kind": "ClusterBuildpack", "metadata": {"name": "bare"},
                 "spec": {"source": {"image": "registry.local/bare:1"}},
                 "status": {"buildpacks": [{"id": "bare/one", "version": "1.0.0"}]}}""")));
        var rows = dev.rekon.buildpacks.status.BuildRows.buildpacks(views);
        assertEquals(1, rows.size());
        assertNull(rows.get(0).digest());
        assertEquals(List.of("bare/one@1.0.0"), rows.get(0).buildpacks());
    }
}
