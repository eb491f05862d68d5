import Testing

@testable import NudgeCore

/// Apple Health's export.xml read as real exports are written, not as clean XML: the shapes
/// below are those the issue trackers of the known importers record (iOS 16's DTD with an
/// `<!ATTLIST` missing its `>`; a raw `\x0b` in a value; a Withings scale's attribute names with
/// spaces; devices written with `&lt;`/`&gt;`), and hostile files (entities that would expand
/// to gigabytes, an external entity, a file cut short) are read without harm or refused with
/// the byte where they stop.
@Suite struct HealthExportReadingTests {
  /// An export shaped as iOS 16 writes it: its DTD's `VisionPrescription` ATTLIST has no `>`.
  static let export = """
    <?xml version="1.0" encoding="UTF-8"?>
    <!DOCTYPE HealthData [
    <!-- HealthKit Export Version: 12 -->
    <!ELEMENT HealthData (ExportDate,Me,(Record|Correlation|Workout|ActivitySummary|ClinicalRecord|VisionPrescription)*)>
    <!ATTLIST HealthData
      locale CDATA #REQUIRED
    >
    <!ATTLIST VisionPrescription
      type             CDATA #REQUIRED
      dateIssued       CDATA #REQUIRED
    <!ELEMENT Record ((MetadataEntry|HeartRateVariabilityMetadataList)*)>
    ]>
    <HealthData locale="en_GB">
     <ExportDate value="2026-11-20 07:02:11 +0000"/>
     <Me HKCharacteristicTypeIdentifierDateOfBirth="" HKCharacteristicTypeIdentifierBiologicalSex="HKBiologicalSexNotSet"/>
     <Record type="HKCategoryTypeIdentifierSleepAnalysis" sourceName="Sam’s Apple Watch" sourceVersion="9.1" device="&lt;&lt;HKDevice: 0x2838&gt;, name:Apple Watch, manufacturer:Apple Inc.\u{0B}&gt;" creationDate="2026-11-20 06:40:00 +0000" startDate="2026-11-19 23:10:00 +0000" endDate="2026-11-20 01:40:00 +0000" value="HKCategoryValueSleepAnalysisAsleepCore">
      <MetadataEntry key="HKTimeZone" value="Europe/London"/>
     </Record>
     <Record type="HKCategoryTypeIdentifierSleepAnalysis" sourceName="Sam’s Apple Watch" startDate="2026-11-20 01:40:00 +0000" endDate="2026-11-20 02:30:00 +0000" value="HKCategoryValueSleepAnalysisAsleepDeep"/>
     <Record type="HKQuantityTypeIdentifierHeartRateVariabilitySDNN" sourceName="Sam’s Apple Watch" unit="ms" startDate="2026-11-20 03:00:00 +0000" endDate="2026-11-20 03:01:00 +0000" value="38.5"/>
     <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Sam’s iPhone" unit="count" startDate="2026-11-20 08:00:00 +0100" endDate="2026-11-20 08:10:00 +0100" value="412"/>
     <Record type="HKQuantityTypeIdentifierBodyMass" sourceName="Withings" unit="lb" creationDate="2026-11-20 07:19:16 -0700" startDate="2026-11-20 07:18:20 -0700" endDate="2026-11-20 07:18:20 -0700" Health Mate App Version="2.6.0" Withings User Identifier="12" Modified Date="2026-11-20 14:19:08 +0000" Withings Link="withings-bd2://timeline/measure?userid=12&amp;date=1" HKWasUserEntered="0" value="165"/>
     <Record type="HKQuantityTypeIdentifierDietaryWater" sourceName="Waterllama" unit="mL" startDate="2026-11-20 09:00:00 +0000" endDate="2026-11-20 09:00:00 +0000" value="250"/>
     <Workout workoutActivityType="HKWorkoutActivityTypeRunning" duration="31.5" durationUnit="min" sourceName="Sam’s Apple Watch" startDate="2026-11-20 17:00:00 +0000" endDate="2026-11-20 17:31:30 +0000">
      <WorkoutEvent type="HKWorkoutEventTypeSegment" date="2026-11-20 17:00:00 +0000"/>
      <WorkoutStatistics type="HKQuantityTypeIdentifierActiveEnergyBurned" startDate="2026-11-20 17:00:00 +0000" endDate="2026-11-20 17:31:30 +0000" sum="312.4" unit="Cal"/>
      <WorkoutStatistics type="HKQuantityTypeIdentifierHeartRate" startDate="2026-11-20 17:00:00 +0000" endDate="2026-11-20 17:31:30 +0000" average="151" minimum="98" maximum="178" unit="count/min"/>
     </Workout>
     <ActivitySummary dateComponents="2026-11-20" activeEnergyBurned="512.3" activeEnergyBurnedGoal="500" activeEnergyBurnedUnit="Cal" appleExerciseTime="31"/>
    </HealthData>

    """

  /// Reads `text` in chunks of `size` bytes.
  static func read(_ text: String, chunk size: Int = 1 << 16) throws -> HealthExportRecords {
    var scanner = HealthXMLScanner(wanted: HealthExportRecords.elements)
    var records = HealthExportRecords()
    let bytes = Array(text.utf8)
    var at = 0
    while at < bytes.count {
      let end = min(bytes.count, at + size)
      try scanner.feed(bytes[at..<end]) { records.take($0) }
      at = end
    }
    try scanner.finish()
    return records
  }

  @Test func anIOS16ExportIsReadDespiteItsDTD() throws {
    let records = try Self.read(Self.export)
    #expect(
      records.samples.map(\.kind) == [.sleep, .sleep, .heartRateVariability, .steps, .bodyMass])
    #expect(records.samples.map(\.stage) == [.core, .deep, nil, nil, nil])
    let core = records.samples[0]
    #expect(core.end.seconds - core.start.seconds == 150 * 60)
    #expect(core.source == "Sam’s Apple Watch")
    // escapes read, the raw vertical tab kept for whoever shows it to escape
    #expect(
      core.device == "<<HKDevice: 0x2838>, name:Apple Watch, manufacturer:Apple Inc.\u{0B}>")
    #expect(records.samples[2].value == 38.5)
    // a step count in its own zone: 08:00 +0100 is 07:00 UTC
    #expect(records.samples[3].offset == 3600)
    #expect(records.samples[3].start == HealthDate.parse("2026-11-20 07:00:00 +0000")?.instant)
    // the Withings scale's spaced attribute names are names; its pounds are kilograms
    #expect(abs(records.samples[4].value - 74.842741) < 1e-6)
    // water is no kind Nudge reads: passed over, not counted as skipped
    #expect(records.skipped.isEmpty)
  }

  @Test func workoutsTakeTheirStatisticsAndTheDaysRingsAreRead() throws {
    let records = try Self.read(Self.export)
    #expect(records.workouts.count == 1)
    let run = try #require(records.workouts.first)
    #expect(run.type == "HKWorkoutActivityTypeRunning")
    #expect(run.durationMinutes == 31.5)
    #expect(run.energyKcal == 312.4)
    #expect(run.averageHeartRate == 151 && run.maximumHeartRate == 178)
    #expect(
      records.summaries == [HealthActivitySummary(day: Day("2026-11-20")!, activeEnergyKcal: 512.3)]
    )
  }

  @Test(arguments: [1, 2, 7, 64, 4096])
  func whereTheChunksEndChangesNothing(size: Int) throws {
    let whole = try Self.read(Self.export)
    let chunked = try Self.read(Self.export, chunk: size)
    #expect(chunked.samples == whole.samples)
    #expect(chunked.workouts == whole.workouts)
    #expect(chunked.summaries == whole.summaries)
  }

  @Test func entitiesAreNeverExpandedAndNoExternalOneIsRead() throws {
    let hostile = """
      <?xml version="1.0"?>
      <!DOCTYPE HealthData [
        <!ENTITY lol "lol">
        <!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
        <!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;">
        <!ENTITY lol9 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
        <!ENTITY xxe SYSTEM "file:///etc/passwd">
      ]>
      <HealthData>
       <Record type="HKQuantityTypeIdentifierStepCount" sourceName="&lol9;" device="&xxe;" unit="count" startDate="2026-11-20 08:00:00 +0000" endDate="2026-11-20 08:10:00 +0000" value="10"/>
      </HealthData>
      """
    let records = try Self.read(hostile)
    #expect(records.samples.count == 1)
    #expect(records.samples.first?.source == "&lol9;")
    #expect(records.samples.first?.device == "&xxe;")
  }

  @Test func aFileCutShortIsRefusedWithTheByteWhereItEnds() throws {
    let bytes = Array(Self.export.utf8)
    // inside a tag: refused at that tag's '<'
    let needle = Array("<Workout ".utf8)
    let workout = try #require(
      (0...(bytes.count - needle.count)).first { Array(bytes[$0..<($0 + needle.count)]) == needle })
    let cutInTag = String(decoding: bytes[..<(workout + 40)], as: UTF8.self)
    #expect {
      try Self.read(cutInTag)
    } throws: {
      ($0 as? HealthXMLScanner.Refusal)
        == HealthXMLScanner.Refusal(offset: workout, message: "the file ends inside a tag")
    }
    // between tags, with the document still open: refused at its end
    let cutBetween = String(decoding: bytes[..<workout], as: UTF8.self)
    #expect {
      try Self.read(cutBetween)
    } throws: {
      let refusal = $0 as? HealthXMLScanner.Refusal
      return refusal?.offset == workout && refusal?.message.contains("still open") == true
    }
    // the records before the cut were read whole, for an import that takes them (--partial)
    var scanner = HealthXMLScanner(wanted: HealthExportRecords.elements)
    var records = HealthExportRecords()
    try scanner.feed(bytes[..<(workout + 40)]) { records.take($0) }
    #expect(records.samples.count == 5)
    #expect(records.workouts.isEmpty)
  }

  @Test func whatCannotBeReadIsSkippedAndCountedByReason() throws {
    func record(_ attributes: String) -> String {
      "<Record sourceName=\"x\" \(attributes)/>"
    }
    let text = """
      <HealthData>
      \(record("type=\"HKQuantityTypeIdentifierStepCount\" unit=\"count\" startDate=\"2026-13-20 08:00:00 +0000\" endDate=\"2026-11-20 08:10:00 +0000\" value=\"1\""))
      \(record("type=\"HKQuantityTypeIdentifierStepCount\" unit=\"count\" startDate=\"2026-11-20 08:00:00 +0000\" endDate=\"2026-11-20 08:10:00 +0000\" value=\"many\""))
      \(record("type=\"HKQuantityTypeIdentifierStepCount\" unit=\"count\" startDate=\"2026-11-20 08:00:00 +0000\" endDate=\"2026-11-20 08:10:00 +0000\" value=\"nan\""))
      \(record("type=\"HKQuantityTypeIdentifierRestingHeartRate\" unit=\"beats/fortnight\" startDate=\"2026-11-20 08:00:00 +0000\" endDate=\"2026-11-20 08:10:00 +0000\" value=\"60\""))
      \(record("type=\"HKCategoryTypeIdentifierSleepAnalysis\" startDate=\"2026-11-20 01:00:00 +0000\" endDate=\"2026-11-20 02:00:00 +0000\" value=\"HKCategoryValueSleepAnalysisDreaming\""))
      \(record("type=\"HKCategoryTypeIdentifierSleepAnalysis\" startDate=\"2026-11-20 03:00:00 +0000\" endDate=\"2026-11-20 02:00:00 +0000\" value=\"HKCategoryValueSleepAnalysisAsleep\""))
      \(record("type=\"HKCategoryTypeIdentifierSleepAnalysis\" startDate=\"2026-11-20 01:00:00 +0000\" endDate=\"2026-11-20 02:00:00 +0000\" value=\"HKCategoryValueSleepAnalysisAsleep\""))
      </HealthData>
      """
    let records = try Self.read(text)
    #expect(
      records.skipped == [
        .dateNotReadable: 1, .valueNotANumber: 2, .unknownUnit: 1, .unknownSleepValue: 1,
        .endBeforeStart: 1,
      ])
    // before iOS 16, "Asleep" is asleep, unspecified
    #expect(records.samples.map(\.stage) == [.asleepUnspecified])
  }

  @Test func whatIsNotXMLIsRefusedWithItsByte() {
    for (text, offset) in [
      ("<HealthData><Record a=\"1\" <b/></HealthData>", 26),
      ("<HealthData><Record a=1/></HealthData>", 12),
      ("<HealthData></HealthData><Record/>", 25),
      ("<HealthData></Record></HealthData>", 12),
      ("just text", 9),
    ] {
      #expect(throws: HealthXMLScanner.Refusal.self, "\(text)") { try Self.read(text) }
      do {
        _ = try Self.read(text)
      } catch let refusal as HealthXMLScanner.Refusal {
        #expect(refusal.offset == offset, "\(text): \(refusal)")
      } catch {
        Issue.record("\(error)")
      }
    }
  }

  @Test func aConstructPastItsLimitIsRefusedWhateverTheChunks() throws {
    let comment = "<!--" + String(repeating: "x", count: HealthXMLScanner.maxConstruct) + "-->"
    let text = "<HealthData>" + comment + "</HealthData>"
    for size in [text.utf8.count, 1 << 16] {
      #expect(
        throws: HealthXMLScanner.Refusal(
          offset: 12, message: "a comment runs on past \(HealthXMLScanner.maxConstruct) bytes")
      ) {
        try Self.read(text, chunk: size)
      }
    }
    let deep = String(repeating: "<a>", count: HealthXMLScanner.maxDepth + 1)
    #expect {
      try Self.read(deep)
    } throws: {
      ($0 as? HealthXMLScanner.Refusal)?.message == "elements nested deeper than 64"
    }
  }

  @Test func aScannerThatRefusedReadsNothingMore() throws {
    var scanner = HealthXMLScanner(wanted: HealthExportRecords.elements)
    let bad = HealthXMLScanner.Refusal(
      offset: 12, message: "an attribute whose value is not quoted")
    #expect(throws: bad) { try scanner.feed(Array("<HealthData><Record a=1/>".utf8)) { _ in } }
    #expect(throws: bad) { try scanner.feed(Array("</HealthData>".utf8)) { _ in } }
    #expect(throws: bad) { try scanner.finish() }
  }

  @Test func quotedValuesCDATAAndTheDTDsCommentsHideTheirMarkup() throws {
    let text = """
      <!DOCTYPE HealthData [
      <!-- a ] and a " in a comment -->
      <?pi it's ]> here ?>
      <!ENTITY a "]>">
      ]>
      <HealthData><![CDATA[ <Record type="no"/> ]]>
      <Record type="HKQuantityTypeIdentifierStepCount" sourceName="a > b" unit="count" startDate="2026-11-20 08:00:00 +0000" endDate="2026-11-20 08:10:00 +0000" value="7"/>
      </HealthData>
      """
    for size in [1, 5, text.utf8.count] {
      let records = try Self.read(text, chunk: size)
      #expect(records.samples.map(\.source) == ["a > b"], "chunks of \(size)")
    }
  }

  @Test func characterReferencesReadOnlyAsTheCharactersXMLAllows() {
    func read(_ value: String) -> String {
      var bytes = Array(value.utf8)
      return bytes.withUnsafeMutableBufferPointer {
        HealthXMLScanner.unescaped(UnsafeBufferPointer($0))
      }
    }
    #expect(read("&#65;&#x42;&lt;&amp;&quot;&apos;&gt;") == "AB<&\"'>")
    #expect(read("&#x1B;[2J") == "&#x1B;[2J")
    #expect(read("&#+65;&#-65;&#xFFFE;&#xD800;&#0;") == "&#+65;&#-65;&#xFFFE;&#xD800;&#0;")
    #expect(read("&#x1F600;") == "😀")
    // a million '&' with no ';' reads as written (each looks 12 bytes ahead, not to the end)
    let flood = String(repeating: "&", count: 1_000_000)
    #expect(read(flood) == flood)
  }

  @Test func aWorkoutsNumbersAreFiniteAndItsDurationInAUnitKnown() throws {
    let text = """
      <HealthData>
      <Workout workoutActivityType="HKWorkoutActivityTypeWalking" duration="1.5" durationUnit="hr" sourceName="x" startDate="2026-11-20 08:00:00 +0000" endDate="2026-11-20 09:30:00 +0000"/>
      <Workout workoutActivityType="HKWorkoutActivityTypeWalking" duration="nan" sourceName="x" startDate="2026-11-20 10:00:00 +0000" endDate="2026-11-20 10:30:00 +0000"/>
      <Workout workoutActivityType="HKWorkoutActivityTypeWalking" duration="3" durationUnit="fortnights" sourceName="x" startDate="2026-11-20 11:00:00 +0000" endDate="2026-11-20 11:30:00 +0000"/>
      </HealthData>
      """
    let records = try Self.read(text)
    #expect(records.workouts.map(\.durationMinutes) == [90, nil, nil])
  }

  @Test func appleHealthsDatesReadWithTheirOffsets() {
    let winter = HealthDate.parse("2026-11-20 23:10:05 -0800")
    #expect(winter?.offset == -8 * 3600)
    #expect(winter?.instant == InstantFormat.parse("2026-11-21T07:10:05Z"))
    #expect(
      HealthDate.parse("2026-03-29 01:30:00 +0100")?.instant
        == InstantFormat.parse("2026-03-29T00:30:00Z"))
    for bad in [
      "2026-02-30 00:00:00 +0000", "2026-11-20T23:10:05-0800", "2026-11-20 23:10:05", "",
      "2026-11-20 24:00:00 +0000",
    ] {
      #expect(HealthDate.parse(bad) == nil, "\(bad)")
    }
  }
}
