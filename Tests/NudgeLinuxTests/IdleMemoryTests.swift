import Glibc
import Testing

@testable import NudgeLinux

/// The heap settings of a command that runs and ends.
@Suite struct IdleMemoryTests {
  @Test func aShortCommandsLargeAllocationsComeFromTheHeap() throws {
    #expect(IdleMemory.keepFreedHeap())
    // a megabyte, which glibc maps on its own by default (above 128 KiB), now comes from the
    // heap: no mapped chunk more while it is held (other tests' frees can only lower the count)
    let before = IdleMemory.mappedChunks
    let block = try #require(malloc(1 << 20))
    memset(block, 1, 1 << 20)
    let during = IdleMemory.mappedChunks
    free(block)
    #expect(during <= before, "mapped chunks: \(before) before, \(during) holding 1 MiB")
  }
}
