import { check, fails } from "./_call.ts";

Deno.test("base64 encode / decode", () => {
  check("base64", ["hello"], "aGVsbG8=");
  check("base64", ["hi"], "aGk=");
  check("base64", [""], "");
  check("base64", [[0, 255, 128]], "AP+A");
  check("base64", ["é"], "6Q==");
  check("base64Decode", ["aGVsbG8="], "hello");
  check("base64Decode", ["w6k="], "Ã©");
  check("base64DecodeBytes", ["AP+A"], [0, 255, 128]);
  fails("base64", ["😀"], "Can only base64 encode strings / arrays of single bytes.");
  fails("base64", [[256]], "Can only base64 encode strings / arrays of single bytes.");
  fails("base64DecodeBytes", ["YQ"], 'Not a base64 encoded string "YQ"');
  fails("base64DecodeBytes", ["Y!=="], "field does not exist: !");
});

Deno.test("UTF-8", () => {
  check("encodeUTF8", ["aé😀"], [97, 195, 169, 240, 159, 152, 128]);
  check("decodeUTF8", [[104, 105]], "hi");
  check("decodeUTF8", [[255, 65]], "\ufffdA");
});

Deno.test("hashes of the UTF-8 bytes", () => {
  check("md5", [""], "d41d8cd98f00b204e9800998ecf8427e");
  check("md5", ["é"], "66ddcd97cfdeabb2f6fb8a999b4bc76f");
  check("sha1", ["abc"], "a9993e364706816aba3e25717850c26c9cd0d89d");
  check("sha256", ["abc"], "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  check(
    "sha512",
    ["abc"],
    "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f",
  );
  check(
    "sha3",
    ["abc"],
    "b751850b1a57168a5693cd924b6b096e08f621827444f70d884f5d0240d2712e10e116e9192af3c91a7ec57647e3934057340b4cf408d5a56592f8274eec53f0",
  );
  fails("md5", [1], "Builtin function md5 expected (string) but got (number)");
});

Deno.test("parseJson", () => {
  check("parseJson", ['{"b": [1, 2.5, "x", null, true], "a": {}}'], {
    a: {},
    b: [1, 2.5, "x", null, true],
  });
  check("parseJson", ["  7 "], 7);
});
