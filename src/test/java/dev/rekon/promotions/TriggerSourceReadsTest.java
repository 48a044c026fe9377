package dev.rekon.promotions;

import static dev.rekon.promotions.plan.Promotions.NOW;
import static dev.rekon.promotions.plan.Promotions.build;
import static dev.rekon.promotions.plan.Promotions.promotion;
import static dev.rekon.promotions.plan.Promotions.source;
import static dev.rekon.promotions.plan.Promotions.stage;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

import dev.rekon.cluster.Versioned;
import dev.rekon.promotions.ImagePromotionServiceTest.World;
import dev.rekon.promotions.view.StagePhase;
import dev.rekon.promotions.view.StageStatus;

/**
 * How often a promotion reads its source kpack Image live: a trigger takes it from the Image watch, unless the
 * watch has yet to show the version an Image event announced, or shows an older build than the promotion's status
 * records (a watch behind a live read); an event that is no trigger, and a retry after a lost race, read it.
 */
class TriggerSourceReadsTest {

    private static final String KEY = "demo/hello";

    @Test
    void everyTriggerOfABuildTakesTheSourceFromItsWatch() {
        World w = new World();
        w.cluster.watched.putAll(w.cluster.stages);
        w.cluster.watchedImages.put(KEY, new Versioned<>("7", source(1)));
        w.service.sourceBuilt("demo", "hello", "7");
        assertEquals(List.of("create PromotedImage staging " + build(1).image(), "status ImagePromotion hello"),
                w.cluster.writes);
        w.service.stageChanged("demo", "hello");
        w.service.stageReported("demo", "hello", "staging");
        assertEquals(List.of(), w.cluster.sourceReads);
    }

    @Test
    void aSourceBuildItsWatchHasYetToShowIsReadAndEntersTheFirstStage() {
        World w = new World();
        w.cluster.watched.putAll(w.cluster.stages);
        w.cluster.watchedImages.put(KEY, new Versioned<>("7", source(1)));
        w.cluster.images.put(KEY, source(2));
        w.service.sourceBuilt("demo", "hello", "9");
        assertEquals(List.of("hello"), w.cluster.sourceReads);
        StageStatus dev = w.cluster.promotions.get(KEY).status().stage("dev");
        assertTrue(build(2).same(dev.build()), "the build the event announced entered dev: " + dev);
    }

    @Test
    void aSourceBuildOfAnUnknownVersionReadsTheSource() {
        World w = new World();
        w.cluster.watched.putAll(w.cluster.stages);
        w.cluster.watchedImages.put(KEY, new Versioned<>("7", source(1)));
        w.service.sourceBuilt("demo", "hello", null);
        assertEquals(List.of("hello"), w.cluster.sourceReads);
    }

    @Test
    void aWatchBehindTheBuildTheStatusRecordsIsNotTakenAndTheStageNeverGoesBack() {
        World w = new World();
        w.cluster.promotions.put(KEY, promotion("None", List.of(stage("dev", build(2), StagePhase.Promoting,
                NOW.minusSeconds(5), build(1)), StageStatus.empty("staging"), StageStatus.empty("prod"))));
        w.cluster.watched.putAll(w.cluster.stages);
        w.cluster.watchedImages.put(KEY, new Versioned<>("7", source(1)));
        w.cluster.images.put(KEY, source(2));
        w.service.stageChanged("demo", "hello");
        assertEquals(List.of("hello"), w.cluster.sourceReads);
        StageStatus dev = w.cluster.promotions.get(KEY).status().stage("dev");
        assertTrue(build(2).same(dev.build()), "dev keeps build 2: " + dev);
    }

    @Test
    void anEventThatIsNoTriggerReadsTheSourceWhateverItsWatchShows() {
        World w = new World();
        w.cluster.watchedImages.put(KEY, new Versioned<>("7", source(1)));
        w.service.changed("demo", "hello");
        assertEquals(List.of("hello"), w.cluster.sourceReads);
    }
}
