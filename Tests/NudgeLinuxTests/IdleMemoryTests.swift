import Glibc
import Testing

@testable import NudgeLinux

/// The heap settings of a command that runs and ends.
@Suite struct IdleMemoryTests {
  @Test func aShortCommandsLargeAllocationsComeFromTheHeap() throws {
    #expect(IdleMemory.keepFreedHeap())
    // 30 MiB, which glibc maps on its own by default (above 128 KiB, and above however far
    // its threshold rose with earlier frees: at most 32 MiB, only for a chunk that large),
    // now comes from the heap: no mapped chunk more while it is held (other tests' frees can
    // only lower the count)
    let size = 30 << 20
    let before = IdleMemory.mappedChunks
    let block = try #require(malloc(size))
    memset(block, 1, size)
    let during = IdleMemory.mappedChunks
    free(block)
    #expect(during <= before, "mapped chunks: \(before) before, \(during) holding 30 MiB")
  }
}
